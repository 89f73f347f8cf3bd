import AssistantClient
import Foundation
import MCP

/// `assistantctl mcp`: the daemon's methods as MCP tools on standard input and output. The only
/// file that sees the MCP SDK's types (it is pre-1.0); the rules are `ToolCatalog`'s.
enum MCPServer {
    static func run(connection: AssistantConnection, catalog: ToolCatalog, version: String) async throws {
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
                            text: "\(name) is destructive and not offered: run assistantctl mcp --allow-destructive to offer it.",
                            annotations: nil, _meta: nil)
                    ], isError: true)
            }
            let arguments = try JSONValue(encoding: params.arguments ?? [:])
            let result = try await connection.callResult(found.name, params: arguments)
            let answer = ToolCatalog.answer(result, for: found)
            let structured: Value? = try value(answer.structured)
            return .init(content: [.text(text: answer.text, annotations: nil, _meta: nil)], structuredContent: structured, isError: answer.isError)
        }
        try await server.start(transport: StdioTransport())
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

    /// The daemon's JSON as the SDK's `Value` (both are plain JSON).
    static func value(_ json: JSONValue) throws -> Value {
        try JSONDecoder().decode(Value.self, from: Data(json.encodedBytes()))
    }
}
