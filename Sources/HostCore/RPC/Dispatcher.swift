import Foundation
import Logging
import NIOConcurrencyHelpers

/// Turns one line of input into at most one line of output, following JSON-RPC 2.0 to the letter:
/// batches (run concurrently), notifications (no reply), exactly one of result/error, `id: null`
/// when the id cannot be read.
public final class Dispatcher: Sendable {
    public let methods: MethodTable
    let redactor: SecretRedactor
    let logger: Logger
    /// Whether the daemon is draining, and who waits for it to begin.
    private let draining = NIOLockedValueBox((began: false, waiters: [CheckedContinuation<Void, Never>]()))
    /// Calls running now, by plugin id (`host` for the host's own methods): a stuck call shows.
    private let running = NIOLockedValueBox([String: Int]())

    /// Calls running now: in all, and by plugin (plugins with a call running only).
    public struct CallsInFlight: Sendable, ResultObject {
        public let total: Int
        public let plugins: [String: Int]

        public static let members = ResultMembers<Self>(.field("total", \.total), .field("plugins", \.plugins))
    }

    public var callsInFlight: CallsInFlight {
        let counts = running.withLockedValue { $0 }
        return CallsInFlight(total: counts.values.reduce(0, +), plugins: counts.filter { $0.value > 0 })
    }

    /// Every method's name in order, for "did you mean" (sorted once: a caller may send unknown
    /// names as fast as it likes).
    private let methodNames: [String]

    public init(methods: MethodTable, redactor: SecretRedactor, logger: Logger) {
        self.methods = methods
        methodNames = methods.sortedNames
        self.redactor = redactor
        self.logger = logger
    }

    /// From now on, new calls get -32001 (shutting down); calls in flight finish.
    public func beginDraining() {
        let waiters = draining.withLockedValue { d -> [CheckedContinuation<Void, Never>] in
            d.began = true
            defer { d.waiters = [] }
            return d.waiters
        }
        waiters.forEach { $0.resume() }
    }
    public var isDraining: Bool { draining.withLockedValue { $0.began } }

    /// Returns once draining has begun (for a caller that must act during a graceful stop).
    public func drainingBegan() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = draining.withLockedValue { d -> Bool in
                if d.began { return true }
                d.waiters.append(continuation)
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// `admitted`: the line was read before draining began, so it is served even if the daemon
    /// starts stopping before it runs (a call in flight is one the daemon has read).
    public func handle(line: Data, connection: (any ConnectionHandle)?, admitted: Bool = false) async -> Data? {
        await reply(to: line, connection: connection, admitted: admitted).map { Data($0) }
    }

    /// The reply's bytes, parsed straight from the line's bytes (a `ByteBuffer`'s view from the
    /// socket: no copy on the way in). What needs no suspension is answered at once
    /// (`immediateReply`), the rest as a call.
    func reply(to line: some Collection<UInt8>, connection: (any ConnectionHandle)?, admitted: Bool) async -> [UInt8]? {
        switch immediateReply(to: line, admitted: admitted) {
        case .now(let reply): return reply
        case .later(let request): return await reply(to: request, connection: connection, admitted: admitted)
        }
    }

    static let parseErrorReply = response(id: .null, error: .parseError("the line is not valid JSON (or not UTF-8)")).encodedBytes()

    /// Members a batch may hold: more is refused whole (-32600), before any runs.
    static let maxBatchMembers = 1000

    /// The reply's bytes for a parsed line: one request or a batch. A batch runs its first member
    /// in the slot its line holds, and more beside it only in `slots` the connection has free
    /// (without `slots`, one at a time), so it can never run more calls at once than any line may.
    func reply(to request: JSONValue, connection: (any ConnectionHandle)?, admitted: Bool, slots: CallSlots? = nil) async -> [UInt8]? {
        switch request {
        case .array(let items):
            if items.isEmpty { return Self.response(id: .null, error: .invalidRequest("an empty batch")).encodedBytes() }
            guard items.count <= Self.maxBatchMembers else {
                return Self.response(
                    id: .null, error: .invalidRequest("a batch may hold at most \(Self.maxBatchMembers) members, this one has \(items.count)")
                ).encodedBytes()
            }
            let replies = await withTaskGroup(of: (Int, JSONValue?).self) { group in
                var next = 0
                var extra = 0
                func start() {
                    let index = next
                    next += 1
                    group.addTask { (index, await self.handleOne(items[index], connection: connection, admitted: admitted)) }
                }
                start()
                while next < items.count, slots?.tryAcquire() == true {
                    extra += 1
                    start()
                }
                var replies: [(Int, JSONValue)] = []
                while let (index, reply) = await group.next() {
                    if let reply { replies.append((index, reply)) }
                    if next < items.count {
                        start()
                        while next < items.count, slots?.tryAcquire() == true {
                            extra += 1
                            start()
                        }
                    } else if extra > 0 {
                        slots?.release()
                        extra -= 1
                    }
                }
                return replies.sorted { $0.0 < $1.0 }.map(\.1)
            }
            // A batch of notifications gets no reply at all, never `[]`.
            return replies.isEmpty ? nil : JSONValue.array(replies).encodedBytes()
        default:
            switch prepare(request) {
            case .answered(let reply): return reply?.encodedBytes()
            case .call(let id, let method, let params):
                return finishBytes(id: id, await outcome(method, params: params, id: id, connection: connection, admitted: admitted))
            }
        }
    }

    /// How a connection's line is answered: `now`, where it was read (a blank line, a line that
    /// is not JSON, a request refused by its envelope, or a method that never suspends, such as
    /// `ping`), with the reply's bytes (nil: nothing to send); `later` as a child task of the
    /// connection, with the line already parsed.
    enum LineReply: Sendable {
        case now([UInt8]?)
        case later(JSONValue)
    }

    /// Answers what needs no suspension at once: a child task per `ping` cost throughput and
    /// bought nothing, as it cannot wait on anything to cancel.
    func immediateReply(to line: some Collection<UInt8>, admitted: Bool) -> LineReply {
        // Blank lines (keep-alives, a stray "\r\n") are not requests.
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return .now(nil) }
        guard let request = try? JSONValue.decode(bytes: line) else { return .now(Self.parseErrorReply) }
        // A batch runs its members as calls.
        if case .array = request { return .later(request) }
        switch prepare(request) {
        case .answered(let reply):
            return .now(reply?.encodedBytes())
        case .call(let id, let method, let params):
            guard let entry = methods[method] else { return .later(request) }
            switch entry.handler {
            case .immediate(let run):
                let outcome: Result<any CallResult, RPCError>
                do {
                    try admit(admitted)
                    outcome = .success(try run(try validated(params, for: entry, method: method)))
                } catch {
                    outcome = .failure(RPCError(sending: error))
                }
                return .now(finishBytes(id: id, outcome))
            case .constant(_, let encoded):
                do {
                    try admit(admitted)
                    _ = try validated(params, for: entry, method: method)
                } catch {
                    return .now(finishBytes(id: id, .failure(RPCError(sending: error))))
                }
                guard let id else { return .now(nil) }
                return .now(JSONValue.responseBytes(id: id.json, encodedResult: encoded))
            default:
                return .later(request)
            }
        }
    }

    /// Handles one request object; nil for a notification.
    public func handleOne(_ request: JSONValue, connection: (any ConnectionHandle)?, admitted: Bool = false) async -> JSONValue? {
        switch prepare(request) {
        case .answered(let reply):
            return reply
        case .call(let id, let method, let params):
            return finish(id: id, await outcome(method, params: params, id: id, connection: connection, admitted: admitted))
        }
    }

    private func outcome(
        _ method: String, params: JSONValue?, id: RPCID?, connection: (any ConnectionHandle)?, admitted: Bool
    ) async -> Result<any CallResult, RPCError> {
        do {
            return .success(try await call(method, params: params, id: id, connection: connection, admitted: admitted))
        } catch {
            return .failure(RPCError(sending: error))
        }
    }

    /// A request object with its envelope checked: a call to make, or already answered (an
    /// invalid request gets its error; nil never happens for those).
    enum Prepared {
        case answered(JSONValue?)
        case call(id: RPCID?, method: String, params: JSONValue?)
    }

    func prepare(_ request: JSONValue) -> Prepared {
        guard case .object(let object) = request else {
            return .answered(Self.response(id: .null, error: .invalidRequest("a request must be an object, got \(request.typeName)")))
        }
        var id: RPCID? = nil
        if let rawID = object["id"] {
            guard let parsed = RPCID(json: rawID) else {
                return .answered(Self.response(id: .null, error: .invalidRequest("'id' must be a string, an integer or null")))
            }
            id = parsed
        }
        guard object["jsonrpc"] == .string("2.0") else {
            return .answered(Self.response(id: id ?? .null, error: .invalidRequest("'jsonrpc' must be exactly \"2.0\"")))
        }
        guard case .string(let method)? = object["method"] else {
            return .answered(Self.response(id: id ?? .null, error: .invalidRequest("'method' must be a string")))
        }
        if let params = object["params"] {
            switch params {
            case .object, .array: break
            default:
                return .answered(Self.response(id: id ?? .null, error: .invalidRequest("'params' must be an object or an array")))
            }
        }
        return .call(id: id, method: method, params: object["params"])
    }

    /// The response to a call, redacted; nil for a notification (never answered, even on error).
    /// A typed result is read back as a value here (a batch's member: rare, and small).
    func finish(id: RPCID?, _ outcome: Result<any CallResult, RPCError>) -> JSONValue? {
        guard let id else { return nil }
        let value = outcome.flatMap { result in
            Result { try result.jsonValue() }.mapError { RPCError.internalError("the result could not be written: \($0)") }
        }
        switch redacted(value) {
        case .success(let result): return Self.response(id: id, result: result)
        case .failure(let error): return Self.response(id: id, error: error)
        }
    }

    /// `finish`'s reply as bytes, written without building the envelope object.
    /// A result is scrubbed as it is written.
    func finishBytes(id: RPCID?, _ outcome: Result<any CallResult, RPCError>) -> [UInt8]? {
        guard let id else { return nil }
        switch outcome {
        case .success(let result): return JSONValue.responseBytes(id: id.json, result: result, scrubbing: redactor.scrubber())
        case .failure(let error): return JSONValue.responseBytes(id: id.json, error: redacted(error).json)
        }
    }

    private func redacted(_ outcome: Result<JSONValue, RPCError>) -> Result<JSONValue, RPCError> {
        switch outcome {
        case .success(let result): .success(redactor.redact(result))
        case .failure(let error): .failure(redacted(error))
        }
    }

    private func redacted(_ error: RPCError) -> RPCError {
        RPCError(code: error.code, message: redactor.redact(error.message), data: error.data.map(redactor.redact))
    }

    /// A call read after draining began is refused.
    private func admit(_ admitted: Bool) throws(RPCError) {
        if isDraining && !admitted {
            throw RPCError(code: RPCErrorCode.shuttingDown, message: "The daemon is shutting down; try again after it restarts")
        }
    }

    /// A peer that `socket.allow_uids` or `allow_groups` admits is not the daemon's own user:
    /// a file it names would be opened with the daemon's rights (its vault key attached to a
    /// mail, say), so its calls may name none.
    static func refuseFiles(_ descriptor: CommandDescriptor, _ params: Params) throws(RPCError) {
        for spec in descriptor.params where spec.type == .path || spec.type == .array(of: .path) {
            guard params[spec.name] != nil else { continue }
            throw RPCError.invalidParam(
                spec.name,
                "names a file, which only the daemon's own user may do: an allowed peer's calls take no paths "
                    + "(the daemon would open them with its own rights)"
            )
        }
    }

    /// The caller's own strings, told to the redactor (see `SecretRedactor.noteCallerText`).
    private func noteCallerText(_ value: JSONValue) {
        switch value {
        case .string(let text): redactor.noteCallerText(text)
        case .array(let items): items.forEach(noteCallerText)
        case .object(let members):
            for (key, member) in members {
                redactor.noteCallerText(key)
                noteCallerText(member)
            }
        default: break
        }
    }

    /// The parameters checked against the method's manifest; secrets among them are remembered
    /// for redaction, and the caller's own text is told to the redactor.
    private func validated(_ params: JSONValue?, for entry: MethodEntry, method: String) throws -> Params {
        let validated = try ParamValidator.validate(params, against: entry.descriptor.params, method: method)
        for rule in entry.descriptor.rules { try rule.check(validated) }
        for spec in entry.descriptor.params {
            guard let value = validated[spec.name] else { continue }
            if spec.type == .secret {
                if let secret = value.stringValue { redactor.rememberParameter(secret) }
            } else {
                noteCallerText(value)
            }
        }
        return validated
    }

    public func call(
        _ method: String, params: JSONValue?, id: RPCID?, connection: (any ConnectionHandle)?, admitted: Bool = false
    ) async throws -> any CallResult {
        guard let entry = methods[method] else {
            throw RPCError.methodNotFound(method, didYouMean: Nearest.word(to: method, among: methodNames))
        }
        try admit(admitted)
        running.withLockedValue { $0[entry.pluginID, default: 0] += 1 }
        defer { running.withLockedValue { $0[entry.pluginID, default: 1] -= 1 } }
        let validated = try validated(params, for: entry, method: method)
        if let peer = connection?.peer, peer.uid != geteuid() { try Self.refuseFiles(entry.descriptor, validated) }
        let context = CallContext(method: method, requestID: id, connection: connection, logger: logger)
        switch entry.handler {
        case .host(let run):
            // The host's own methods keep their declared time limits too (a backup, a job run now).
            let limit = entry.descriptor.timeout
            return try await withDeadline(
                limit,
                timedOut: {
                    RPCError(
                        code: RPCErrorCode.timeout, message: "'\(method)' did not finish within \(limit.limitText)",
                        data: ["method": .string(method)])
                }
            ) { try await run(validated, context) }
        case .plugin(let supervisor, let command, let handler):
            return try await supervisor.call(command, handler: handler, params: validated, context: context, timeout: entry.descriptor.timeout)
        case .immediate(let run):
            return try run(validated)
        case .constant(let value, _):
            return value
        }
    }

    static func response(id: RPCID, result: JSONValue) -> JSONValue {
        .object(["jsonrpc": "2.0", "id": id.json, "result": result])
    }

    static func response(id: RPCID, error: RPCError) -> JSONValue {
        .object(["jsonrpc": "2.0", "id": id.json, "error": error.json])
    }
}
