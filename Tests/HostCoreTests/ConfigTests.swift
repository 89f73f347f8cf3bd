import AssistantClient
import Foundation
import HostCore
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(1))) struct ConfigTests {
    @Test func everyKeyHasADefault() throws {
        let loaded = try ConfigLoader.parse("", file: "empty.toml")
        #expect(loaded.warnings.isEmpty)
        let c = loaded.configuration
        #expect(c.socket.mode == 0o600)
        #expect(c.socket.maxRequestBytes == 1 << 20)
        #expect(c.notify.stdout.enabled)
        #expect(!c.notify.mail.enabled)
        #expect(c.vault.mode == "keyfile")
        #expect(c.store.retentionDays == 90)
        #expect(c.language == .en)
    }

    /// `language` chooses the words of notices: cs or en, and nothing else, named when wrong.
    @Test func theLanguageOfNoticesIsCzechOrEnglish() throws {
        #expect(try ConfigLoader.parse("language = \"cs\"", file: "c.toml").configuration.language == .cs)
        for bad in ["\"de\"", "\"CS\"", "1"] {
            #expect {
                try ConfigLoader.parse("language = \(bad)", file: "c.toml")
            } throws: { "\($0)".contains("language") }
        }
    }

    /// A notice's words with their values put in once: a value (a task's title) that looks like a
    /// placeholder stays as it was written.
    @Test func wordsPutEachValueInOnce() {
        let words = Words("{title} (due {due})", "{title} (termín {due})")
        #expect(words.text(.en, ["title": "Pay {due}", "due": "Mon"]) == "Pay {due} (due Mon)")
        #expect(words.text(.cs, ["title": "Zaplatit", "due": "po"]) == "Zaplatit (termín po)")
        #expect(Words("{a}{b} {unknown} {", "").text(.en, ["a": "{b}", "b": "x"]) == "{b}x {unknown} {")
    }

    @Test func aFullFileIsRead() throws {
        let text = """
            timezone = "Europe/Prague"
            log_level = "debug"

            [socket]
            mode = "0660"
            allow_uids = [1001]
            max_request_bytes = 2097152

            [notify.stdout]
            format = "json"
            topics = ["octoprint.*"]
            min_severity = "warning"

            [notify.mail]
            enabled = true
            transport = "smtp"
            from = "me@example.org"
            to = ["me@example.org", "you@example.org"]

            [notify.smtp]
            host = "smtp.example.org"
            security = "tls"
            username = "me"

            [plugins.octoprint]
            enabled = false
            """
        let c = try ConfigLoader.parse(text, file: "c.toml").configuration
        #expect(c.timeZone.identifier == "Europe/Prague")
        #expect(c.logLevel == .debug)
        #expect(c.socket.mode == 0o660)
        #expect(c.socket.allowUIDs == [1001])
        #expect(c.notify.stdout.format == .json)
        #expect(c.notify.stdout.route == NoticeRoute(topics: [TopicPattern("octoprint.*")], minimumSeverity: .warning))
        #expect(c.notify.mail.to == ["me@example.org", "you@example.org"])
        #expect(c.notify.smtp.effectivePort == 465)
        #expect(!c.isEnabled(plugin: "octoprint"))
        #expect(c.isEnabled(plugin: "logbook"))
    }

    @Test func errorsNameFileLineAndReason() {
        let cases: [(String, Int, String)] = [
            ("timezone = \"Nowhere/Land\"", 1, "timezone"),
            ("\n[socket]\nmode = \"0400\"", 3, "socket.mode"),
            ("[socket]\nmode = \"0644x\"", 2, "socket.mode"),
            ("[notify.stdout]\nformat = \"xml\"", 2, "notify.stdout.format"),
            ("[notify.mail]\nto = [\"not an address\"]", 2, "notify.mail.to"),
            ("[notify.smtp]\nport = 70000", 2, "notify.smtp.port"),
            ("[store]\nretention_days = \"ninety\"", 2, "store.retention_days"),
            ("[plugins.x]\nenabled = \"yes\"", 2, "plugins.x.enabled"),
            ("[mcp]\ntools = [\"Tasks!\"]", 2, "mcp.tools"),
            ("[mcp]\ntools = [5]", 2, "mcp.tools"),
            ("[mcp]\nallow_destructive = \"yes\"", 2, "mcp.allow_destructive"),
            ("[mcp]\nconfirm_destructive = 1", 2, "mcp.confirm_destructive"),
            ("[mcp]\nfiles_dir = \"relative/files\"", 2, "mcp.files_dir"),
            ("[notify.smtp]\nhost = \"mail.example.org\"\nsecurity = \"none\"", 3, "notify.smtp.security"),
            ("[[broken", 1, ""),
        ]
        for (text, line, key) in cases {
            do {
                _ = try ConfigLoader.parse(text, file: "f.toml")
                Issue.record("accepted: \(text)")
            } catch let error as ConfigError {
                #expect(error.line == line, "\(text): \(error)")
                #expect(error.description.hasPrefix("f.toml:\(line): "), "\(error)")
                #expect(key.isEmpty || error.reason.contains(key), "\(error)")
            } catch {
                Issue.record("unexpected \(error)")
            }
        }
    }

    @Test func unknownKeysWarnWithTheirLine() throws {
        let loaded = try ConfigLoader.parse("colour = 1\n[socket]\nmode = \"0600\"\nsize = 3\n", file: "w.toml")
        #expect(loaded.warnings == ["w.toml:1: unknown key 'colour' ignored", "w.toml:4: unknown key 'socket.size' ignored"])
    }
}

@Suite(.stopsTestHosts, .timeLimit(.minutes(1))) struct CLIArgumentTests {
    let params = [
        ParamInfo(name: "title", type: "string", required: true), ParamInfo(name: "limit", type: "integer", required: false),
        ParamInfo(name: "path", type: "path", required: true), ParamInfo(name: "files", type: "array", required: false, itemType: "path"),
        ParamInfo(name: "secret", type: "secret", required: true), ParamInfo(name: "any", type: "any", required: false),
    ]

    @Test func literalRule() throws {
        let built = try CallArguments.build(
            ["title=007", "limit=5", "path=rel/x", "files=[\"a\",\"/b\"]", "any={\"k\":[1,true]}"], params: params, workingDirectory: "/home/u")
        #expect(built == ["title": "007", "limit": 5, "path": "/home/u/rel/x", "files": ["/home/u/a", "/b"], "any": ["k": [1, true]]])
        #expect(CallArguments.literal("0123") == nil, "a leading zero keeps a string (hex-safe)")
        #expect(CallArguments.literal("-1.5e3")?.doubleValue == -1500)
        #expect(CallArguments.literal("null") == .null)
        #expect(CallArguments.literal("\"quoted\"") == "quoted")
        #expect(CallArguments.literal("word") == nil)
        #expect(try CallArguments.build(["a", "2"], params: nil, workingDirectory: "/") == ["a", 2])
    }

    @Test func durationsAreMinutesWhenWholeAndTextOtherwise() throws {
        let duration = [ParamInfo(name: "total", type: "duration", required: false)]
        func sent(_ raw: String) throws -> JSONValue? { try CallArguments.build(["total=\(raw)"], params: duration, workingDirectory: "/")?["total"] }
        #expect(try sent("90") == 90)
        #expect(try sent("0090") == 90, "a leading zero is still whole minutes, not hours")
        #expect(try sent("1.5") == "1.5")
        #expect(try sent("1:30") == "1:30")
        #expect(try sent("-5") == "-5", "the daemon refuses it with a clear message")
    }

    @Test func aListOfWordsMayBeWrittenWithCommas() throws {
        let tags = [ParamInfo(name: "tags", type: "array", required: false, itemType: "string")]
        func sent(_ raw: String) throws -> JSONValue? { try CallArguments.build(["tags=\(raw)"], params: tags, workingDirectory: "/")?["tags"] }
        #expect(try sent("exam,math") == ["exam", "math"])
        #expect(try sent("exam, math,") == ["exam", "math"])
        #expect(try sent("exam") == ["exam"])
        #expect(try sent(#"["a,b","c"]"#) == ["a,b", "c"], "the JSON form keeps its commas")
    }

    @Test func usageErrors() {
        #expect(throws: UsageError.self) { try CallArguments.build(["secret=x"], params: params, workingDirectory: "/") }
        #expect(throws: UsageError.self) { try CallArguments.build(["title=a", "loose"], params: params, workingDirectory: "/") }
        #expect(throws: UsageError.self) { try CallArguments.build(["title=a", "title=b"], params: params, workingDirectory: "/") }
        #expect(throws: UsageError.self) { try CallArguments.build(["=x"], params: params, workingDirectory: "/") }
    }

    @Test func humanOutput() {
        let table = HumanOutput.render([["id": "a", "state": "ready", "n": 1], ["id": "bb", "state": "failed", "n": .null]])
        #expect(table == "ID  STATE   N\na   ready   1\nbb  failed  -")
        #expect(HumanOutput.render("pong") == "pong")
        #expect(HumanOutput.render(["b": 1, "a": ["x": true]]) == "a:\n  x  true\nb  1")
        #expect(HumanOutput.render(.array([])) == "(none)")
    }
}

@Suite(.stopsTestHosts, .timeLimit(.minutes(1))) struct TimeZoneDisplayTests {
    @Test func humanOutputShowsUTCTimesInTheDaemonsZone() {
        let prague = TimeZone(identifier: "Europe/Prague")!
        #expect(HumanOutput.render(["next_run": "2026-11-23T02:30:00Z"], timeZone: prague) == "next_run  2026-11-23 03:30:00 GMT+1")
        #expect(HumanOutput.render(["when": "2026-07-01T12:00:00Z"], timeZone: prague) == "when  2026-07-01 14:00:00 GMT+2")
        #expect(HumanOutput.render(["text": "not a time"], timeZone: prague) == "text  not a time")
    }
}
