import AssistantClient
import Foundation
import Synchronization

/// What one `assistantctl mcp` session lets a model do, settled when the client says what it
/// supports (its `initialize`): which tools are listed, whether the person confirms each
/// destructive call (MCP's elicitation), and where file paths may point (MCP's roots, or
/// `[mcp] files_dir`). Free of the SDK's types: the client is asked through closures.
final class SessionPolicy: Sendable {
    struct Settings: Sendable {
        var allowDestructive = false
        var confirmDestructive = true
        var tools: [String] = []
        /// The folder paths must stay in when the client names no roots.
        var filesDir: String
    }

    /// What the person answered when asked to confirm a call.
    enum Answer: Sendable { case accept, decline, cancel }

    let settings: Settings
    private let discover: JSONValue
    private struct State {
        var catalog: ToolCatalog
        var confirms = false
        var clientHasRoots = false
        /// The roots as last listed; nil until asked, and again after the client's list changes.
        var roots: PathRoots?
    }
    private let state: Mutex<State>

    init(discover: JSONValue, settings: Settings) {
        self.discover = discover
        self.settings = settings
        state = Mutex(State(catalog: ToolCatalog(discover: discover, offerDestructive: settings.allowDestructive, tools: settings.tools)))
    }

    var catalog: ToolCatalog { state.withLock { $0.catalog } }
    var confirms: Bool { state.withLock { $0.confirms } }

    /// The client's capabilities: a client that can ask its person (elicitation) is offered the
    /// destructive tools, each call confirmed; one that cannot keeps `allow_destructive`'s rule.
    @discardableResult
    func clientSupports(elicitation: Bool, roots: Bool) -> ToolCatalog {
        let confirms = settings.confirmDestructive && elicitation
        // The catalog made at the start lists the same tools unless asking adds the destructive
        // ones: made again only then (it is most of a session's start).
        let catalog =
            confirms && !settings.allowDestructive
            ? ToolCatalog(discover: discover, offerDestructive: true, tools: settings.tools) : self.catalog
        state.withLock {
            $0.catalog = catalog
            $0.confirms = confirms
            $0.clientHasRoots = roots
            $0.roots = nil
        }
        return catalog
    }

    /// `notifications/roots/list_changed`: the next call asks again.
    func rootsChanged() { state.withLock { $0.roots = nil } }

    /// The checks before a call reaches the daemon: every path argument inside the roots (and
    /// replaced by its resolved form), then, for a call that is destructive with these
    /// arguments, the person's yes. `lookup` makes a read call for the question's details (an
    /// exam term's subject and date). The arguments to send, or the refusal the model is told.
    func clear(
        _ tool: ToolCatalog.Tool, _ arguments: JSONValue, listRoots: @Sendable () async throws -> [String],
        lookup: @Sendable (String, JSONValue) async -> JSONValue? = { _, _ in nil }, ask: @Sendable (String) async throws -> Answer
    ) async -> Result<JSONValue, Refusal> {
        guard var given = arguments.objectValue else { return .success(arguments) }
        var admittedIn: PathRoots?
        if tool.pathParams.contains(where: { given[$0] != nil && given[$0] != .null }) {
            let roots: PathRoots
            do { roots = try await currentRoots(listRoots) } catch {
                return .failure(Refusal("the client did not list its roots (\(error.localizedDescription)); no file was touched"))
            }
            admittedIn = roots
            for param in tool.pathParams {
                switch given[param] {
                case .string(let path)?:
                    guard let resolved = roots.admit(path) else { return .failure(outside(param, path, roots)) }
                    given[param] = .string(resolved)
                case .array(let items)?:
                    var resolvedItems: [JSONValue] = []
                    for item in items {
                        guard let path = item.stringValue, let resolved = roots.admit(path) else {
                            return .failure(outside(param, item.stringValue ?? item.encodedString(), roots))
                        }
                        resolvedItems.append(.string(resolved))
                    }
                    given[param] = .array(resolvedItems)
                default: break
                }
            }
        }
        guard tool.effect(for: given) == "destructive" else { return .success(.object(given)) }
        if confirms {
            let details = await details(for: tool, given, lookup: lookup)
            let answer: Answer
            do { answer = try await ask(Self.question(tool, given, details: details, roots: admittedIn)) } catch {
                return .failure(Refusal("the person could not be asked (\(error.localizedDescription)); nothing was done"))
            }
            switch answer {
            case .accept: return .success(.object(given))
            case .decline, .cancel: return .failure(Refusal("declined by the person: nothing was done"))
            }
        }
        if settings.allowDestructive { return .success(.object(given)) }
        let rule = tool.effectRule.map { " (\($0))" } ?? ""
        return .failure(
            Refusal(
                "\(tool.name) is destructive with these arguments\(rule) and this client cannot ask its person to confirm: "
                    + "set allow_destructive = true under [mcp] in the daemon's config.toml to let it run unasked."))
    }

    /// The answer of the read the tool's question names, called with the arguments that read
    /// takes; empty when there is none or it fails (the question then falls back to the ids).
    private func details(
        for tool: ToolCatalog.Tool, _ arguments: [String: JSONValue], lookup: @Sendable (String, JSONValue) async -> JSONValue?
    ) async -> [String: JSONValue] {
        guard let method = tool.confirm?.details,
            let declared = discover["methods"]?.arrayValue?.first(where: { $0["name"]?.stringValue == method }),
            declared["x-effect"] == "read"
        else { return [:] }
        let taken = Set((declared["params"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue })
        return await lookup(method, .object(arguments.filter { taken.contains($0.key) }))?.objectValue ?? [:]
    }

    private func currentRoots(_ listRoots: @Sendable () async throws -> [String]) async throws -> PathRoots {
        let (known, asks) = state.withLock { ($0.roots, $0.clientHasRoots) }
        if let known { return known }
        let roots: PathRoots
        if asks {
            roots = PathRoots(uris: try await listRoots())
        } else {
            // A client that names no roots gets one folder of its own, private to the user.
            try FileManager.default.createDirectory(
                atPath: settings.filesDir, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            roots = PathRoots([settings.filesDir])
        }
        state.withLock { $0.roots = roots }
        return roots
    }

    private func outside(_ param: String, _ path: String, _ roots: PathRoots) -> Refusal {
        let folders = roots.folders.isEmpty ? "none" : roots.folders.joined(separator: ", ")
        return Refusal(
            "\(param): \(OneLine.bounded(path, 300)) is outside the folders this assistant may use (roots: \(folders)); nothing was opened")
    }

    struct Refusal: Error, Sendable {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// What the person is asked: the command's own sentence built from the call (or, for a
    /// command that declares none, its name), then each argument (a file by its path and size).
    static func question(
        _ tool: ToolCatalog.Tool, _ arguments: [String: JSONValue], details: [String: JSONValue] = [:], roots: PathRoots? = nil
    ) -> String {
        // Each file's size is read once, for the sentence and the argument list alike.
        var sizes: [String: String] = [:]
        for path in tool.pathParams.flatMap({ arguments[$0].map(paths) ?? [] }) {
            sizes[path] = size(of: path).map { " (\($0))" } ?? ""
        }
        let sentence = tool.confirm?.filled(
            arguments: arguments, details: details, pathParams: Set(tool.pathParams),
            describePath: { path in shown(path, roots) + (sizes[path] ?? "") })
        var lines = [sentence ?? "Run \(tool.name)?", "", "\(tool.name): \(OneLine.bounded(tool.description, 300))"]
        for name in arguments.keys.sorted() {
            guard let value = arguments[name], value != .null else { continue }
            if tool.pathParams.contains(name) {
                lines.append("  \(name): " + paths(value).map { path in OneLine.bounded(path, 300) + (sizes[path] ?? "") }.joined(separator: ", "))
            } else {
                lines.append("  \(name): \(OneLine.bounded(value.stringValue ?? value.encodedString(), 300))")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// A path argument's paths: one, or a list.
    static func paths(_ value: JSONValue) -> [String] { value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? [] }

    /// A path as the person knows it: inside the root that holds it, else whole.
    static func shown(_ path: String, _ roots: PathRoots?) -> String {
        let root = roots?.folders.filter { $0 != "/" && path.hasPrefix($0 + "/") }.max { $0.count < $1.count }
        return OneLine.bounded(root.map { String(path.dropFirst($0.count + 1)) } ?? path, 200)
    }

    /// A file's size in a person's units, or nil when there is no such file.
    static func size(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return ByteCountFormatter.string(fromByteCount: Int64(info.st_size), countStyle: .file)
    }
}
