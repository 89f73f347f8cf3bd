import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import HostCore

@Suite(.stopsTestHosts, .timeLimit(.minutes(3))) struct PluginRegistryTests {
    @Test func aTestPluginIsRegisteredDescribedAndCalled() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin()])
        let connection = try await host.connect()
        #expect(try await connection.call("echo.say", params: ["text": "hi", "times": 2]) == "hi hi")
        #expect(try await connection.call("echo.measure", params: ["text": "héllo"]) == ["text": "héllo", "length": 5])
        let help = try await connection.call("help", params: ["method": "echo.say"])
        #expect(help["plugin"] == "echo")
        #expect(help["usage"] == "echo.say text=<string> [times=<integer>]")
        #expect(help["params"]?.arrayValue?.last?["maximum"] == 5)
        let plugins = try await connection.call("plugins.list")
        let echo = try #require(plugins.arrayValue?.first { $0["id"] == "echo" })
        #expect(echo["state"] == "ready")
        #expect(echo["jobs"] == ["echo.tick"])
        #expect(echo["vault_names"] == ["echo/token"])
        let jobs = try await connection.call("jobs.list")
        #expect(jobs.arrayValue?.compactMap { $0["id"]?.stringValue }.sorted() == ["echo.tick", "host.prune"])
        let discover = try await connection.call("rpc.discover")
        #expect(discover["openrpc"] == "1.2.6")
        let methods = discover["methods"]?.arrayValue ?? []
        let say = try #require(methods.first { $0["name"] == "echo.say" })
        #expect(say["params"]?.arrayValue?.first?["schema"] == ["type": "string"])
        #expect(say["params"]?.arrayValue?.last?["schema"] == ["type": "integer", "minimum": 1, "maximum": 5, "default": 1])
        // help and rpc.discover list exactly what was declared: the host's methods and the
        // plugin's manifest, nothing more, nothing less.
        let declared = (HostMethods.all.map(\.descriptor.name) + EchoPlugin().manifest.commands.map(\.name)).sorted()
        let names = try await connection.call("help")["methods"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(names == declared, "help lists the declared methods, sorted")
        #expect(methods.compactMap { $0["name"]?.stringValue }.sorted() == declared, "rpc.discover too")
        await connection.close()
        await host.stop()
    }

    @Test func pluginDataLivesInItsOwnNamespacedTables() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin()])
        _ = try await host.call("echo.say", ["text": "stored"]).get()
        let rows = try await host.host.store.pool.read { db in try String.fetchAll(db, sql: "SELECT text FROM echo_said") }
        #expect(rows == ["stored"])
        let migrations = try await host.host.store.pool.read { db in try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(migrations.contains("echo/v1"))
        await host.stop()
    }

    @Test func badInputForEveryKindOfParameterNamesTheParameter() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin()])
        let cases: [(String, JSONValue, String)] = [
            ("echo.say", [:], "text"),
            ("echo.say", ["text": 1], "text"),
            ("echo.say", ["text": "x", "times": 0], "times"),
            ("echo.say", ["text": "x", "times": 6], "times"),
            ("echo.say", ["text": "x", "times": 1.5], "times"),
            ("echo.say", ["text": "x", "extra": true], "extra"),
            ("echo.path", ["file": "relative/path"], "file"),
            ("echo.path", ["file": ""], "file"),
            ("jobs.run", ["id": "no.such.job"], "id"),
            ("help", ["method": "nope"], "method"),
        ]
        for (method, params, param) in cases {
            let result = try await host.call(method, params)
            guard case .failure(let error) = result else {
                Issue.record("\(method) \(params) was accepted")
                continue
            }
            #expect(error.code == -32602, "\(method) \(params)")
            #expect(error.data?["param"] == .string(param), "\(method) \(params): \(error.message)")
            #expect(error.message.contains(param))
        }
        let tooMany = try await host.call("echo.say", ["a", 1, "extra"])
        guard case .failure(let positional) = tooMany else {
            Issue.record("accepted")
            return
        }
        #expect(positional.code == -32602)
        let counted = try await host.host.store.pool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM echo_said") }
        #expect(counted == 0, "refused calls wrote nothing")
        await host.stop()
    }

    @Test func pluginErrorsMapToHostCodesAndNeverTakeTheDaemonDown() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin(), BrokenPlugin()])
        let crash = try await host.call("echo.crash")
        guard case .failure(let crashError) = crash else {
            Issue.record("no error")
            return
        }
        #expect(crashError.code == -32603)
        #expect(crashError.message.contains("boom"))
        let hang = try await host.call("echo.hang")
        guard case .failure(let hangError) = hang else {
            Issue.record("no timeout")
            return
        }
        #expect(hangError.code == -32005)
        let broken = try await host.call("broken.ping")
        guard case .failure(let brokenError) = broken else {
            Issue.record("broken plugin answered")
            return
        }
        #expect(brokenError.code == -32002)
        #expect(brokenError.data?["state"] == "failed")
        let status = try await host.call("status").get()
        let brokenStatus = try #require(status["plugins"]?.arrayValue?.first { $0["id"] == "broken" })
        #expect(brokenStatus["detail"] == "setup exploded")
        let reauth = try await host.call("echo.reauth")
        guard case .failure(let reauthError) = reauth else {
            Issue.record("no reauth error")
            return
        }
        #expect(reauthError.code == -32003)
        let after = try await host.call("echo.say", ["text": "x"])
        guard case .failure(let parked) = after else {
            Issue.record("plugin still ready after needs-reauth")
            return
        }
        #expect(parked.code == -32003)
        // New credentials in its scope re-run setup.
        _ = try await host.call("vault.set", ["name": "echo/token", "secret": "new"]).get()
        await host.host.supervisor("echo")!.settled()
        #expect(try await host.call("echo.say", ["text": "back"]) == .success("back"))
        #expect(try await host.call("ping") == .success("pong"))
        await host.stop()
    }

    @Test func transientSetupFailuresAreRetriedWithBackoff() async throws {
        let clock = TestClock()
        let flaky = FlakyPlugin(failures: 2)
        let host = try TestHost(plugins: [flaky], clock: clock)
        try await host.host.start()
        host.run()
        let supervisor = try #require(host.host.supervisor("flaky"))
        // First attempt fails at once; the retry waits 5 s, then 10 s, each with up to 20 % jitter.
        let start = clock.now
        await clock.waitForSleeper { (5.0...6.0).contains($0.timeIntervalSince(start)) }
        #expect(await supervisor.state == .setup)
        // status shows the retry time (to the second).
        let firstRetry = try #require(await supervisor.status().nextRetry.flatMap(ISO8601.date))
        #expect((4.0..<7.0).contains(firstRetry.timeIntervalSince(start)))
        clock.advance(by: 6)
        let second = clock.now
        await clock.waitForSleeper { (10.0...12.0).contains($0.timeIntervalSince(second)) }
        clock.advance(by: 12)
        await supervisor.settled()
        #expect(await supervisor.state == .ready)
        #expect(flaky.attempts.withLockedValue { $0 } == 3)
        await host.stop()
    }

    @Test func disabledPluginsAreListedButNotStarted() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin()]) { $0.plugins["echo"] = ["enabled": false] }
        let result = try await host.call("echo.say", ["text": "x"])
        guard case .failure(let error) = result else {
            Issue.record("disabled plugin answered")
            return
        }
        #expect(error.code == -32002)
        #expect(error.data?["state"] == "disabled")
        await host.stop()
    }

    @Test func duplicateIdsAndBadCommandNamesAreStartupErrors() async throws {
        #expect(throws: StartupError.self) { _ = try TestHost(plugins: [EchoPlugin(), EchoPlugin()]) }
        for names in [[""], ["Ping"], ["a..b"], [".x"], ["x."], ["x y"], ["ok", "ok"]] {
            do {
                _ = try TestHost(plugins: [MisnamedPlugin(commandNames: names)])
                Issue.record("commands \(names) accepted")
            } catch let error as StartupError {
                #expect(error.exitCode == 78)
                #expect(error.message.contains("misnamed"), "\(error.message)")
            }
        }
        #expect(throws: StartupError.self) { _ = try TestHost(plugins: [MisnamedPlugin(id: "host", commandNames: ["x"])]) }
        do {
            _ = try TestHost(plugins: [MisnamedPlugin(id: "a", commandNames: ["x"]), MisnamedPlugin(id: "a", commandNames: ["y"])])
            Issue.record("duplicate id accepted")
        } catch let error as StartupError {
            #expect(error.exitCode == 78)
            #expect(error.message.contains("'a'"))
        }
    }

    /// A plugin's error codes lie in its own block, blocks lie in the plugins' space and do not
    /// overlap: each mistake stops the start with a message naming the plugin and the codes.
    @Test func errorCodesOutsideTheirBlockAreStartupErrors() throws {
        let cases: [([MisnamedPlugin], String)] = [
            (
                [MisnamedPlugin(id: "a", commandNames: ["x"], errors: ErrorBlock(1500...1599, codes: [1501: "ok", 1601: "stray"]))],
                "plugin 'a' declares error code 1601, outside its block 1500…1599"
            ),
            (
                [MisnamedPlugin(id: "a", commandNames: ["x"], errors: ErrorBlock(-32010 ... -32000, codes: [:]))],
                "plugin 'a' declares error codes -32010…-32000; a plugin's block lies within 1000…9999"
            ),
            (
                [
                    MisnamedPlugin(id: "a", commandNames: ["x"], errors: ErrorBlock(1500...1599, codes: [:])),
                    MisnamedPlugin(id: "b", commandNames: ["x"], errors: ErrorBlock(1550...1649, codes: [:])),
                ],
                "plugins 'a' and 'b' declare overlapping error code blocks"
            ),
        ]
        for (plugins, message) in cases {
            do {
                _ = try TestHost(plugins: plugins)
                Issue.record("accepted: \(message)")
            } catch let error as StartupError {
                #expect(error.exitCode == 78)
                #expect(error.message == message)
            }
        }
        _ = try TestHost(plugins: [MisnamedPlugin(id: "a", commandNames: ["x"], errors: ErrorBlock(1500...1599, codes: [1500: "x", 1599: "y"]))])
    }

    /// The dispatch table and the declarations are one: every declared command is a method, with
    /// the declared descriptor, and reaches its own handler (each handler here answers its name).
    @Test func everyDeclaredCommandIsCallableAndReachesItsHandler() async throws {
        let names = ["alpha", "beta.gamma", "delta.epsilon.zeta"]
        let host = try await TestHost.started(plugins: [NamedEchoPlugin(names: names)])
        let help = try await host.call("help", nil).get()
        let listed = help["methods"]?.arrayValue?.compactMap { $0["plugin"] == "named" ? $0["name"]?.stringValue : nil }
        #expect(listed == names.map { "named.\($0)" })
        for name in names {
            #expect(try await host.call("named.\(name)", ["n": 7]).get() == .string("\(name):7"))
        }
        await host.stop()
    }

    /// A call during setup waits for the outcome instead of failing with an upstream error.
    @Test func aCallDuringSetupWaitsForIt() async throws {
        let gated = GatedPlugin()
        let host = try await TestHost.started(plugins: [gated], waitForPlugins: false)
        async let answer = host.call("gated.ping", nil)
        // The call is parked on the supervisor before the gate opens.
        let supervisor = try #require(host.host.supervisor("gated"))
        await supervisor.waitUntilCallsWaitForSetup(1)
        gated.gate.open()
        #expect(try await answer.get() == "ready-pong")
        await host.stop()
    }

    /// A call that waited its while and found the plugin still setting up gets -32002 with the state.
    @Test func aCallDuringALongSetupGetsPluginNotReadyWithTheState() async throws {
        let gated = GatedPlugin()
        let host = try await TestHost.started(plugins: [gated], waitForPlugins: false, adjust: { $0.setupCallWait = .milliseconds(1) })
        let result = try await host.call("gated.ping", nil)
        guard case .failure(let error) = result else {
            Issue.record("answered before setup: \(result)")
            return
        }
        #expect(error.code == -32002)
        #expect(error.data?["state"] == "setup")
        #expect(error.message.contains("Plugin 'gated' is not ready (setup)"))
        gated.gate.open()
        await host.stop()
    }

    /// Keys declared once (`Param`): the manifest's spec comes from the key, an optional key reads
    /// its value or nil, a required one its value or the same -32602 the validator gives.
    @Test func typedKeysReadTheirValuesAndNameThemselvesWhenWrong() throws {
        let count = Param<Int64>("n", .integer(min: 1), default: 5, help: "how many")
        let day = Param<DateOnly>("day", help: "a date")
        let tags = Param<[String]>("tags", help: "labels")
        let term = Param<Int64>.required("term_id", .integer(min: 1), help: "the term")
        #expect(count.spec.name == "n")
        #expect(count.spec.type == .integer(min: 1))
        #expect(count.spec.defaultValue == .int(5))
        #expect(!count.spec.required)
        #expect(term.spec.required)
        #expect(tags.spec.type == .array(of: .string))
        #expect(day.spec.type == .date)
        let specs: [ParamSpec] = [count.spec, day.spec, tags.spec, term.spec]
        let raw: JSONValue = ["term_id": 7, "day": "2026-02-28", "tags": ["a", "b"]]
        let given = try ParamValidator.validate(raw, against: specs, method: "m")
        #expect(given[count] == 5, "the default")
        #expect(given[day] == DateOnly("2026-02-28"))
        #expect(given[tags] == ["a", "b"])
        #expect(try given[term] == 7)
        let wrong = Params(["term_id": "seven", "n": "x"])
        #expect(wrong[count] == nil, "a value of another type reads as nil, never a crash")
        for (params, problem) in [(wrong, "must be integer, got a string"), (Params([:]), "is required (the term)")] {
            do throws(RPCError) {
                _ = try params[term]
                Issue.record("read term_id from \(params.values)")
            } catch {
                #expect(error.code == -32602)
                #expect(error.data?["param"] == "term_id")
                #expect(error.data?["problem"] == .string(problem))
            }
        }
    }

    /// A rule over two parameters, declared with the command, is checked before the handler
    /// and named in help.
    @Test func aRuleOverTwoParametersIsCheckedBeforeTheHandler() {
        let from = Param<DateOnly>("from", help: "first day")
        let to = Param<DateOnly>("to", help: "last day")
        let rule = ParamRule.ordered(from, to, maxDays: 10)
        #expect(rule.summary == "to is not before from, and at most 10 days after it")
        func problem(_ values: [String: JSONValue]) -> String? {
            do throws(RPCError) {
                try rule.check(Params(values))
                return nil
            } catch {
                #expect(error.code == -32602 && error.data?["param"] == "to")
                return error.data?["problem"]?.stringValue
            }
        }
        #expect(problem(["from": "2026-01-10", "to": "2026-01-20"]) == nil)
        #expect(problem(["from": "2026-01-10"]) == nil, "checked only when both are given")
        #expect(problem(["from": "2026-01-10", "to": "2026-01-09"]) == "(2026-01-09) is before from (2026-01-10)")
        #expect(problem(["from": "2026-01-10", "to": "2026-01-21"]) == "is more than 10 days after from (2026-01-10 to 2026-01-21)")
    }

    /// A plugin's error enum is sent as its code, message and data; anything else keeps its
    /// JSON-RPC form or becomes an internal error.
    @Test func aPluginErrorCaseIsSentAsItsRPCError() {
        enum Sample: PluginErrorCase {
            case gone(String)
            var code: Int { 1501 }
            var message: String {
                switch self {
                case .gone(let what): "\(what) is gone"
                }
            }
            var data: JSONValue? {
                switch self {
                case .gone(let what): ["what": .string(what)]
                }
            }
        }
        #expect(RPCError(sending: Sample.gone("x")) == RPCError(code: 1501, message: "x is gone", data: ["what": "x"]))
        #expect(String(describing: Sample.gone("x")) == "x is gone", "logs and a job's last error read the message")
        #expect(RPCError(sending: RPCError.notFound("t")).code == RPCErrorCode.notFound)
        #expect(RPCError(sending: CancellationError()).code == RPCErrorCode.internalError)
    }

    @Test func typedParametersNeverCrashOnAMissingOrMistypedValue() throws {
        let params = Params(["n": 3, "s": "x", "list": [1, 2], "flag": true])
        #expect(try params.requiredInt("n") == 3)
        #expect(try params.requiredString("s") == "x")
        #expect(try params.requiredArray("list") == [1, 2])
        #expect(try params.requiredBool("flag"))
        for (read, name, message) in [
            ({ _ = try params.requiredInt("missing") }, "missing", "is required"),
            ({ _ = try params.requiredInt("s") }, "s", "must be an integer, got a string"),
            ({ _ = try params.requiredString("n") }, "s", "must be a string, got an integer"),
        ] as [(() throws -> Void, String, String)] {
            do {
                try read()
                Issue.record("read \(name) without an error")
            } catch let error as RPCError {
                #expect(error.code == -32602)
                #expect(error.message.contains(message), "\(error.message)")
            }
        }
        struct Window: Decodable {
            var n: Int
            var s: String
            var missing: String?
        }
        #expect(try params.decode(Window.self).n == 3)
        struct Strict: Decodable { var s: Int }
        do throws(RPCError) {
            _ = try params.decode(Strict.self)
            Issue.record("decoded a string as an integer")
        } catch {
            #expect(error.code == -32602)
            #expect(error.data?["param"] == "s")
        }
        struct Needs: Decodable { var absent: Bool }
        do throws(RPCError) {
            _ = try params.decode(Needs.self)
            Issue.record("decoded without a required key")
        } catch {
            #expect(error.data?["param"] == "absent")
            #expect(error.message.contains("is required"))
        }
    }

    @Test func pluginConfigIsTypeCheckedAndDefaulted() async throws {
        let echo = EchoPlugin()
        let host = try await TestHost.started(plugins: [echo]) { $0.plugins["echo"] = ["unknown_key": 1] }
        #expect(host.host.warnings.contains { $0.contains("plugins.echo.unknown_key") })
        #expect(echo.contextBox.withLockedValue { $0?.config.string("greeting") } == "hello")
        await host.stop()
        #expect(throws: StartupError.self) { _ = try TestHost(plugins: [EchoPlugin()]) { $0.plugins["echo"] = ["greeting": 5] } }
    }

    @Test func progressReachesTheCaller() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin()])
        let connection = try await host.connect()
        let result = try await connection.call("echo.slow", params: ["steps": 3])
        #expect(result == "done")
        var iterator = connection.notifications.makeAsyncIterator()
        var seen: [JSONValue] = []
        for _ in 0..<3 { if let n = await iterator.next() { seen.append(n.params) } }
        #expect(seen.map { $0["done"] } == [1, 2, 3])
        #expect(seen.allSatisfy { $0["total"] == 3 && $0["request_id"] == 1 })
        await connection.close()
        await host.stop()
    }

    @Test func credentialsRelayedFromUpstreamAreRedacted() async throws {
        let host = try await TestHost.started(plugins: [EchoPlugin()])
        let result = try await host.call("echo.login", ["token": "tok-1234567890"]).get()
        #expect(result["settings"]?["api_key"] == .string(SecretRedactor.placeholder))
        #expect(result["settings"]?["name"] == "printer")
        #expect(result["echo"] == .string("token was \(SecretRedactor.placeholder)"))
        #expect(result["seen"] == [SecretRedactor.placeholder: true], "a secret in a key is scrubbed too")
        await host.stop()
    }

    @Test func jobsRunNowAndFailureNoticesAreEdgeTriggered() async throws {
        let echo = EchoPlugin()
        let host = try await TestHost.started(plugins: [echo])
        // A job that never ran runs once when its plugin becomes ready; let that first run finish.
        var completions = host.host.scheduler.completions().makeAsyncIterator()
        if let status = await host.host.scheduler.status("echo.tick"), status.lastRun == nil || status.running {
            _ = await completions.next()
        }
        echo.jobFailures.withLockedValue { $0 = 2 }
        let first = try await host.call("jobs.run", ["id": "echo.tick"]).get()
        #expect(first["last_outcome"] == "failed")
        // The error as a person reads it, in jobs.list too: the message, never a Swift debug form.
        #expect(first["last_error"] == "Internal error: tick failed on purpose")
        let listed = try await host.call("jobs.list").get().arrayValue?.first { $0["id"] == "echo.tick" }
        #expect(listed?["last_error"] == "Internal error: tick failed on purpose")
        _ = try await host.call("jobs.run", ["id": "echo.tick"]).get()
        let third = try await host.call("jobs.run", ["id": "echo.tick"]).get()
        #expect(third["last_outcome"] == "ok")
        let notices = try await host.call("notifications.list", ["topic": "host.job.*"]).get().arrayValue ?? []
        #expect(notices.compactMap { $0["topic"]?.stringValue }.sorted() == ["host.job.failed", "host.job.recovered"])
        await host.stop()
    }
}
