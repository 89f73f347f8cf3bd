import AssistantClient
import Foundation
import Logging
import MCP
import SystemPackage

/// `assistantctl mcp`: the daemon's methods as MCP tools on standard input and output. The only
/// file that sees the MCP SDK's types (it is pre-1.0); the rules are `ToolCatalog`'s.
enum MCPServer {
    static func run(link: DaemonLink, catalog: ToolCatalog, version: String) async throws {
        let server = Server(
            name: "assistantd", version: version,
            instructions: "Tools for the daemon assistantd: tasks and reminders, the IS/STAG and KOS study systems, 3D printers "
                + "behind OctoPrint, and an EASA pilot logbook. `today` gives the whole day at once; each tool's name is the daemon's method.",
            capabilities: .init(tools: .init(listChanged: false)))
        let tools = catalog.tools.map(tool)
        await server.withMethodHandler(ListTools.self) { _ in .init(tools: tools) }
        await server.withMethodHandler(CallTool.self) { params in
            let found: ToolCatalog.Tool
            switch catalog.tool(params.name) {
            case .success(let tool): found = tool
            case .failure(.unknown(let name)): throw MCPError.invalidParams("Unknown tool: \(name)")
            case .failure(.notExposed(let name, let reason)):
                return .init(content: [.text(text: "\(name) is not offered to assistants: \(reason).", annotations: nil, _meta: nil)], isError: true)
            case .failure(.destructive(let name)):
                return .init(
                    content: [
                        .text(
                            text:
                                "\(name) is destructive and not offered: set allow_destructive = true under [mcp] in the daemon's config.toml "
                                + "(or run assistantctl mcp --allow-destructive) to offer it.",
                            annotations: nil, _meta: nil)
                    ], isError: true)
            }
            let arguments = try JSONValue(encoding: params.arguments ?? [:])
            let result = try await link.call(found.name, arguments)
            let answer = ToolCatalog.answer(result, for: found)
            let structured: Value? = try value(answer.structured)
            return .init(content: [.text(text: answer.text, annotations: nil, _meta: nil)], structuredContent: structured, isError: answer.isError)
        }
        try await server.start(transport: LineTransport())
        await server.waitUntilCompleted()
    }

    static func tool(_ tool: ToolCatalog.Tool) -> Tool {
        Tool(
            name: tool.name, title: tool.name, description: tool.description, inputSchema: (try? value(tool.inputSchema)) ?? .object([:]),
            annotations: .init(
                title: tool.name, readOnlyHint: tool.effect == "read", destructiveHint: tool.effect == "destructive",
                idempotentHint: tool.effect == "read", openWorldHint: tool.openWorld),
            outputSchema: try? value(tool.outputSchema))
    }

    /// The daemon's JSON as the SDK's `Value`, case by case: going through `JSONDecoder` cost
    /// most of the start (the 220 tools' schemas), since `Value`'s decoder tries every case.
    static func value(_ json: JSONValue) throws -> Value {
        switch json {
        case .null: .null
        case .bool(let b): .bool(b)
        case .int(let i): .int(Int(i))
        case .double(let d): .double(d)
        case .string(let s): .string(s)
        case .array(let items): .array(try items.map(value))
        case .object(let members): .object(try members.mapValues(value))
        }
    }
}

/// The daemon connection a session calls through, made again when the daemon closed it (a
/// restart, a request over its line limit), so one bad call does not end the session.
actor DaemonLink {
    private var connection: AssistantConnection
    private let connect: @Sendable () async throws -> AssistantConnection

    init(_ connection: AssistantConnection, connect: @escaping @Sendable () async throws -> AssistantConnection) {
        self.connection = connection
        self.connect = connect
    }

    func call(_ method: String, _ params: JSONValue) async throws -> Result<JSONValue, RPCError> {
        if connection.isClosed { connection = try await connect() }
        return try await connection.callResult(method, params: params)
    }

    func close() async { await connection.close() }
}

/// MCP's stdio transport, bounded: a message is one line of at most `maxLine` bytes. Written here
/// because the SDK's `StdioTransport` searches its whole pending buffer for a newline after every
/// 4 KB read (a 3 MB line took over 20 s) and keeps any line whole in memory. Each line is found
/// by scanning only the bytes just read; a longer line is skipped to its end and answered with a
/// JSON-RPC error, so one bad message costs neither time nor memory. Reading is driven by the
/// server consuming `receive()` (no task of its own); the blocking `read` runs off the
/// cooperative pool.
actor LineTransport: Transport {
    /// Just under the daemon's default line limit (1 MiB), which a call's arguments pass on to:
    /// a larger message is refused here, with its id, rather than by the daemon.
    static let maxLine = (1 << 20) - 1024
    static let chunk = 64 << 10

    nonisolated let logger = Logger(label: "assistantctl.mcp")
    private var buffer: [UInt8] = []
    /// Where the newline search resumes: the bytes before it hold none.
    private var scanned = 0
    private var discarding = false
    private var finished = false
    private let reads = DispatchQueue(label: "assistantctl.mcp.stdin")

    func connect() async throws {}

    func disconnect() async { finished = true }

    func send(_ data: Data) async throws {
        var line = [UInt8](data)
        line.append(UInt8(ascii: "\n"))
        try Self.writeAll(line)
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> {
        AsyncThrowingStream { try await self.nextMessage() }
    }

    /// The first and the last bytes of a line being skipped: the request's id is in one of them
    /// (clients put it before `params`, or last).
    private var skippedHead: [UInt8] = []
    private var skippedTail: [UInt8] = []
    static let edge = 512

    /// The next complete line, or nil at the end of input.
    func nextMessage() async throws -> Data? {
        while !finished {
            if let end = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                scanned = 0
                if discarding {
                    discarding = false
                    skippedTail = Array((skippedTail + line).suffix(Self.edge))
                    try? await refuseSkipped()
                    continue
                }
                if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") }) { continue }
                return Data(line)
            }
            scanned = buffer.count
            if discarding || buffer.count > Self.maxLine {
                if !discarding {
                    discarding = true
                    skippedHead = Array(buffer.prefix(Self.edge))
                    skippedTail = []
                }
                skippedTail = Array((skippedTail + buffer.suffix(Self.edge)).suffix(Self.edge))
                buffer.removeAll(keepingCapacity: true)
                scanned = 0
            }
            guard let chunk = try await readChunk() else {
                finished = true
                return nil
            }
            buffer.append(contentsOf: chunk)
        }
        return nil
    }

    /// Answers a skipped line with -32600 to its request's id, so the client's waiting call ends
    /// with the error instead of hanging.
    private func refuseSkipped() async throws {
        let head = String(decoding: skippedHead, as: UTF8.self)
        var id = "null"
        if let key = head.range(of: "\"id\""), head.range(of: "\"params\"").map({ key.lowerBound < $0.lowerBound }) ?? true {
            id = Self.idValue(head[key.upperBound...]) ?? "null"
        } else {
            let tail = String(decoding: skippedTail, as: UTF8.self)
            if let key = tail.range(of: "\"id\"", options: .backwards) { id = Self.idValue(tail[key.upperBound...]) ?? "null" }
        }
        try await send(
            Data(#"{"jsonrpc":"2.0","id":\#(id),"error":{"code":-32600,"message":"Request too large: a message may be at most 1 MiB"}}"#.utf8))
    }

    /// The value after an `"id"` key (a number or a plain string), as JSON text.
    static func idValue(_ rest: Substring) -> String? {
        let value = rest.drop { $0 == " " || $0 == ":" }
        if value.first == "\"" {
            let body = value.dropFirst().prefix { $0 != "\"" && $0 != "\\" }
            return body.count < value.count - 1 ? "\"\(body)\"" : nil
        }
        let digits = value.prefix { $0.isNumber || $0 == "-" }
        return digits.isEmpty ? nil : String(digits)
    }

    /// One blocking read of standard input, on a queue of its own; nil at the end of input.
    private func readChunk() async throws -> [UInt8]? {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<[UInt8]?, any Error>) in
            reads.async {
                var bytes = [UInt8](repeating: 0, count: Self.chunk)
                while true {
                    let count = bytes.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, Self.chunk) }
                    if count > 0 { return continuation.resume(returning: Array(bytes[..<count])) }
                    if count == 0 { return continuation.resume(returning: nil) }
                    if errno == EINTR { continue }
                    if errno == EAGAIN {
                        // A non-blocking stdin (an inherited flag): wait until it is readable.
                        var poller = pollfd(fd: STDIN_FILENO, events: Int16(POLLIN), revents: 0)
                        _ = poll(&poller, 1, -1)
                        continue
                    }
                    return continuation.resume(throwing: MCPError.transportError(Errno(rawValue: errno)))
                }
            }
        }
    }

    private static func writeAll(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let count = bytes[offset...].withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
            if count > 0 {
                offset += count
            } else if count < 0 && errno == EINTR {
                continue
            } else if count < 0 && errno == EAGAIN {
                var poller = pollfd(fd: STDOUT_FILENO, events: Int16(POLLOUT), revents: 0)
                _ = poll(&poller, 1, -1)
            } else {
                throw MCPError.transportError(Errno(rawValue: errno))
            }
        }
    }
}
