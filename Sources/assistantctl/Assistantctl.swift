import ArgumentParser
import AssistantClient
import Foundation

@main
struct Assistantctl: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "assistantctl",
        abstract: "Talk to assistantd: call any method, read help, watch notices, manage the vault.",
        discussion: """
            Any method can be called by name with key=value arguments:
              assistantctl ping
              assistantctl notifications.send title=Hello body='It works'
            Values that look like JSON (numbers, true/false/null, {...}, [...], "...") are sent as JSON.

            Exit codes: 0 ok, 1 the daemon returned an error, 64 usage error, 69 daemon not reachable.
            """,
        version: "0.1.0",
        subcommands: [Call.self, Help.self, Status.self, Today.self, Watch.self, Vault.self, MCPCommand.self, Docs.self],
        defaultSubcommand: Call.self)
}

struct GlobalOptions: ParsableArguments {
    @Option(help: "Socket path (default: $ASSISTANT_SOCKET, then $XDG_RUNTIME_DIR/assistant/assistantd.sock).")
    var socket: String?

    @Flag(name: [.customShort("J"), .long], help: "Print JSON (the default when output is not a terminal).")
    var json = false

    @Flag(name: [.customShort("H"), .long], help: "Print readable text even when output is not a terminal.")
    var human = false

    @Flag(help: "No colour (as the NO_COLOR environment variable does); colour is only ever used on a terminal.")
    var noColor = false

    var socketPath: String {
        let env = ProcessInfo.processInfo.environment
        if let socket, !socket.isEmpty { return socket }
        if let fromEnv = env["ASSISTANT_SOCKET"], !fromEnv.isEmpty { return fromEnv }
        if let runtime = env["XDG_RUNTIME_DIR"], runtime.hasPrefix("/") {
            return (runtime as NSString).appendingPathComponent("assistant/assistantd.sock")
        }
        return "/tmp/assistant-\(getuid())/assistantd.sock"
    }

    var wantsJSON: Bool {
        if json { return true }
        if human { return false }
        return isatty(STDOUT_FILENO) == 0
    }

    /// The daemons assistantctl talks to: the user's own, or a system one run by root. Another
    /// user could have made the socket (a `/tmp/assistant-$UID` they created first): a secret
    /// given to `vault.set` must never reach them.
    static let trustedServers: Set<uid_t> = [getuid(), 0]

    func connect() async throws -> AssistantConnection {
        do {
            return try await AssistantConnection.connect(socketPath: socketPath, serverUIDs: GlobalOptions.trustedServers)
        } catch let error as ClientError {
            Output.fail(
                "assistantctl: \(error)\nStart the daemon with 'assistantd' (or 'systemctl --user start assistantd'), "
                    + "or point --socket / ASSISTANT_SOCKET at the right socket.", code: 69)
        }
    }
}

struct Call: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "call", abstract: "Call a method: assistantctl [call] METHOD [key=value ...]")

    @OptionGroup var options: GlobalOptions

    @Argument(parsing: .captureForPassthrough, help: "The method, then its arguments as key=value (or positional).")
    var words: [String] = []

    func run() async throws {
        // Global flags after the method are still flags (captureForPassthrough keeps them as words).
        var options = self.options
        var words: [String] = []
        var wide = false
        var remaining = self.words[...]
        while let word = remaining.popFirst() {
            switch word {
            case "-J", "--json": options.json = true
            case "-H", "--human": options.human = true
            case "--no-color": options.noColor = true
            case "-o", "--output":
                switch remaining.popFirst() {
                case "json": options.json = true
                case "wide": wide = true
                case let other: throw ValidationError("-o takes 'wide' or 'json', not '\(other ?? "")'")
                }
            case "--socket":
                guard let path = remaining.popFirst() else { throw ValidationError("--socket needs a path") }
                options.socket = path
            default:
                if word.hasPrefix("--socket=") { options.socket = String(word.dropFirst(9)) } else { words.append(word) }
            }
        }
        guard let method = words.first else {
            throw ValidationError("name a method, e.g. 'assistantctl ping'; 'assistantctl help' lists them")
        }
        let connection = try await options.connect()
        let answer = try await Invocation(connection: connection, options: options).callWithView(method, Array(words.dropFirst()))
        let zone = options.wantsJSON ? nil : await Output.daemonTimeZone(connection)
        await connection.close()
        answer.show(options: options, zone: zone, wide: wide)
    }
}

extension Invocation.Answer {
    /// A person at a terminal is told what a change did, or sees the method's view; `-o wide`
    /// every field, a pipe or `--json` the JSON.
    func show(options: GlobalOptions, zone: TimeZone?, wide: Bool = false) {
        if !options.wantsJSON, !wide {
            func rendered(_ view: ResultView) -> String? {
                ViewRenderer(
                    view: view, width: ViewRenderer.terminalWidth(), zone: zone ?? .current, now: Date(),
                    colour: ViewRenderer.wantsColour(noColorFlag: options.noColor)
                ).render(result)
            }
            if let said = says?.said(result: result, arguments: arguments, zone: zone ?? .current) {
                print(said)
                // A change that answers with a list (each sink's answer, each feed's count) shows
                // it under its line: a failure in it stays in sight.
                if let view, !view.columns.isEmpty, let rows = rendered(view.rowsOnly) { print(rows) }
                for field in view?.fields ?? [] where field.format == .qr {
                    guard let text = field.key.flatMap({ result[$0]?.stringValue }), let code = QRCode.lines(text) else { continue }
                    print(code.joined(separator: "\n"))
                }
                return
            }
            if let view, let text = rendered(view) { return print(text) }
        }
        Output.result(result, json: options.wantsJSON, timeZone: zone)
    }
}

/// Prepares and sends one call: reads the method's parameter list first (paths made absolute,
/// secrets read from stdin or a prompt), prints progress on stderr.
struct Invocation {
    let connection: AssistantConnection
    let options: GlobalOptions

    func call(_ method: String, _ arguments: [String], secrets: [String: String] = [:]) async throws -> JSONValue {
        try await callWithView(method, arguments, secrets: secrets).result
    }

    /// A call's result, with how the method shows it to a person.
    struct Answer {
        var result: JSONValue
        /// The view the method declares (nil: the generic table).
        var view: ResultView?
        /// What a change says it did (nil: a read, or the view).
        var says: ShortAnswer?
        /// The arguments as sent, which the short answer may name.
        var arguments: [String: JSONValue]
    }

    func callWithView(_ method: String, _ arguments: [String], secrets: [String: String] = [:]) async throws -> Answer {
        var params: [ParamInfo]? = nil
        var view: ResultView? = nil
        var says: ShortAnswer? = nil
        if case .success(let help) = try await connection.callResult("help", params: ["method": .string(method)]) {
            params = ParamInfo.list(fromHelp: help)
            view = help["view"].flatMap(ResultView.init(json:))
            says = ShortAnswer(json: help["says"])
        }
        var built: JSONValue?
        do {
            built = try CallArguments.build(arguments, params: params, workingDirectory: FileManager.default.currentDirectoryPath)
        } catch let error as UsageError {
            Output.fail("assistantctl: \(error)", code: 64)
        }
        // Required secrets not given: from the caller, else standard input or a no-echo prompt.
        for info in params ?? [] where info.type == "secret" && (info.required || secrets[info.name] != nil) {
            if case .array = built { continue }
            var object = built?.objectValue ?? [:]
            guard object[info.name] == nil else { continue }
            object[info.name] = .string(try secrets[info.name] ?? SecretInput.read(prompt: "\(info.name) for \(method): "))
            built = .object(object)
        }
        let call = built
        // Progress notices are shown while the call runs, by a child that ends with it.
        let outcome = try await withThrowingTaskGroup(of: Result<JSONValue, RPCError>?.self) { group in
            group.addTask {
                for await notification in connection.notifications where notification.method == "progress" {
                    Output.progress(notification.params)
                }
                return nil
            }
            defer { group.cancelAll() }
            return try await connection.callResult(method, params: call)
        }
        switch outcome {
        case .success(let result):
            // A secret is never said back, whatever a template names.
            let secretNames = Set((params ?? []).filter { $0.type == "secret" }.map(\.name))
            return Answer(result: result, view: view, says: says, arguments: (call?.objectValue ?? [:]).filter { !secretNames.contains($0.key) })
        case .failure(let error):
            // An optional secret the daemon could not find elsewhere (a printer's API key not in
            // the vault yet): asked for once, as a required one is, and the call made again.
            if error.code == RPCErrorCode.invalidParams, let name = error.data?["param"]?.stringValue, secrets[name] == nil,
                (params ?? []).contains(where: { $0.name == name && $0.type == "secret" }), call?[name] == nil
            {
                let secret = try SecretInput.read(prompt: "\(name) for \(method): ")
                return try await callWithView(method, arguments, secrets: secrets.merging([name: secret]) { $1 })
            }
            // A word that is no method may be one of assistantctl's own commands, mistyped.
            if error.code == RPCErrorCode.methodNotFound, error.data?["did_you_mean"] == nil, !options.wantsJSON,
                let nearest = Nearest.word(to: method, among: Assistantctl.configuration.subcommands.map { $0._commandName }, within: nil)
            {
                Output.fail("assistantctl: no method or command '\(method)'; did you mean 'assistantctl \(nearest)'?", code: 1)
            }
            Output.error(error, json: options.wantsJSON)
        }
    }
}

struct Help: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List methods, or show one method's parameters.")

    @OptionGroup var options: GlobalOptions
    @Argument(help: "A method name.") var method: String?

    func run() async throws {
        let connection = try await options.connect()
        let params: JSONValue? = method.map { ["method": .string($0)] }
        let result: JSONValue
        switch try await connection.callResult("help", params: params) {
        case .success(let r): result = r
        case .failure(let error): Output.error(error, json: options.wantsJSON)
        }
        await connection.close()
        if options.wantsJSON { return Output.result(result, json: true) }
        if method != nil {
            print(MethodHelp.text(result))
        } else {
            let rows = (result["methods"]?.arrayValue ?? []).map { m -> JSONValue in
                ["name": m["name"] ?? .null, "summary": m["summary"] ?? .null]
            }
            print(HumanOutput.render(.array(rows)))
            print("\nRun 'assistantctl help METHOD' for its parameters.")
        }
    }
}

struct Status: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Show the daemon's status, plugins and jobs.")
    @OptionGroup var options: GlobalOptions

    func run() async throws {
        let connection = try await options.connect()
        let answer = try await Invocation(connection: connection, options: options).callWithView("status", [])
        let zone = options.wantsJSON ? nil : await Output.daemonTimeZone(connection)
        await connection.close()
        // Its declared view, fitted to the terminal; jobs.list has the jobs whole.
        answer.show(options: options, zone: zone)
    }
}

struct Today: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The day across plugins: tasks, events, classes, exams within 7 days, running prints, warnings.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "The day (YYYY-MM-DD); default today.") var date: String?

    func run() async throws {
        let connection = try await options.connect()
        let result = try await Invocation(connection: connection, options: options).call("today", date.map { ["date=\($0)"] } ?? [])
        await connection.close()
        if options.wantsJSON { return Output.result(result, json: true) }
        print(DayView.render(result))
    }
}

struct MCPCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp", abstract: "Serve the daemon's methods as tools to an AI assistant (MCP on standard input and output).",
        discussion:
            "Destructive calls (deletes, prints, exam registration, mail to others, replacing a file) are put to the person "
            + "first where the client can ask (MCP elicitation); from a client that cannot, they run only with allow_destructive = "
            + "true under [mcp] in the daemon's config.toml, or --allow-destructive. File paths must lie inside the client's roots "
            + "(or [mcp] files_dir). [mcp] tools limits the tools to names or prefixes.")
    @OptionGroup var options: GlobalOptions
    @Flag(help: "Let destructive calls run unasked from a client that cannot ask its person.") var allowDestructive = false

    func run() async throws {
        let connection = try await options.connect()
        let discover = try await connection.call("rpc.discover")
        let settings = (try? await connection.call("mcp.settings")) ?? [:]
        let environment = ProcessInfo.processInfo.environment
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory() + "/.local/share"
        let policy = SessionPolicy(
            discover: discover,
            settings: .init(
                allowDestructive: allowDestructive || settings["allow_destructive"] == true,
                confirmDestructive: settings["confirm_destructive"] != false,
                tools: settings["tools"]?.arrayValue?.compactMap(\.stringValue) ?? [],
                filesDir: settings["files_dir"]?.stringValue ?? dataHome + "/assistant/files"))
        let status = (try? await connection.call("status")) ?? [:]
        let version = status["version"]?.stringValue ?? "unknown"
        let zone = status["time_zone"]?.stringValue.flatMap(TimeZone.init(identifier:)) ?? .current
        let path = options.socketPath
        // Notices come on a connection of their own, subscribed to every topic.
        let notices = try? await AssistantConnection.connect(socketPath: path, serverUIDs: GlobalOptions.trustedServers)
        if let notices, case .failure = try await notices.callResult("subscribe", params: ["topics": []]) { await notices.close() }
        let link = DaemonLink(connection) { try await AssistantConnection.connect(socketPath: path, serverUIDs: GlobalOptions.trustedServers) }
        try await MCPServer.run(link: link, policy: policy, zone: zone, version: version, notices: notices, plugins: status["plugins"] ?? [])
        // The end of input ends the session: the calls still running are hung up, which cancels them.
        await link.close()
        await notices?.close()
    }
}

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stream notices as they happen (Ctrl-C to stop).",
        discussion: "Topics match exactly or by a trailing *, e.g. 'octoprint.print.*'. None means all.")
    @OptionGroup var options: GlobalOptions
    @Argument(help: "Topics or prefix patterns.") var topics: [String] = []

    func run() async throws {
        let connection = try await options.connect()
        let params: JSONValue = ["topics": .array(topics.map(JSONValue.string))]
        if case .failure(let error) = try await connection.callResult("subscribe", params: params) {
            Output.error(error, json: options.wantsJSON)
        }
        let json = options.wantsJSON
        let zone = json ? nil : await Output.daemonTimeZone(connection)
        // On stderr in both modes: a script reading stdout sees only notices, and knows from this
        // line that the subscription is in place.
        FileHandle.standardError.write(Data("# watching \(topics.isEmpty ? "all topics" : topics.joined(separator: ", "))\n".utf8))
        for await notification in connection.notifications where notification.method == "notice" {
            Output.notice(notification.params, json: json, timeZone: zone)
        }
        // The daemon went away.
        Output.fail("assistantctl: the daemon closed the connection", code: 69)
    }
}

struct Vault: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Manage secrets. Values are read from standard input or a prompt, never from arguments.",
        subcommands: [Set.self, Unlock.self, Rekey.self])

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Store a secret: assistantctl vault set NAME (then type it, or pipe it in).")
        @OptionGroup var options: GlobalOptions
        @Argument(help: "<plugin>/<name>, e.g. host/smtp/password") var name: String

        func run() async throws {
            let connection = try await options.connect()
            let secret = try SecretInput.read(prompt: "secret for \(name): ")
            let answer = try await Invocation(connection: connection, options: options).callWithView(
                "vault.set", ["name=\(name)"], secrets: ["secret": secret])
            await connection.close()
            answer.show(options: options, zone: nil)
        }
    }

    struct Unlock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Unlock a passphrase vault.")
        @OptionGroup var options: GlobalOptions

        func run() async throws {
            let connection = try await options.connect()
            let passphrase = try SecretInput.read(prompt: "vault passphrase: ")
            let answer = try await Invocation(connection: connection, options: options).callWithView(
                "vault.unlock", [], secrets: ["passphrase": passphrase])
            await connection.close()
            answer.show(options: options, zone: nil)
        }
    }

    struct Rekey: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Re-encrypt the vault under a new key (or a new passphrase).")
        @OptionGroup var options: GlobalOptions
        @Flag(help: "Ask for a new passphrase (passphrase vaults).") var passphrase = false

        func run() async throws {
            let connection = try await options.connect()
            var secrets: [String: String] = [:]
            if passphrase { secrets["passphrase"] = try SecretInput.read(prompt: "new vault passphrase: ") }
            let answer = try await Invocation(connection: connection, options: options).callWithView("vault.rekey", [], secrets: secrets)
            await connection.close()
            answer.show(options: options, zone: nil)
        }
    }
}
