// Measures `assistantctl mcp` in a release build against a running daemon: start to initialized,
// `tools/list` with every plugin, and a `tasks.list` tool call beside the same call over the
// socket (AssistantClient, as assistantctl makes it), measured in one run, both warm.
// Run: scripts/bench-mcp
import AssistantClient
import Foundation

let runs = 200
let binDir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path

func milliseconds(since start: UInt64) -> Double { Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6 }
func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

var template = Array("/tmp/mcp-bench-XXXXXX".utf8CString)
_ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
let directory = String(cString: template.map { UInt8(bitPattern: $0) })
let socketPath = directory + "/assistant/assistantd.sock"
let environment = [
    "HOME": directory, "XDG_RUNTIME_DIR": directory, "XDG_DATA_HOME": directory + "/data", "XDG_CONFIG_HOME": directory + "/config",
    "PATH": "/usr/bin:/bin", "ASSISTANT_SOCKET": socketPath,
]

let daemon = Process()
daemon.executableURL = URL(fileURLWithPath: binDir + "/assistantd")
daemon.environment = environment
daemon.standardOutput = FileHandle.nullDevice
daemon.standardError = FileHandle.nullDevice
try daemon.run()
var connection: AssistantConnection?
for _ in 0..<200 where connection == nil {
    connection = try? await AssistantConnection.connect(socketPath: socketPath)
    if connection == nil { try await Task.sleep(for: .milliseconds(25)) }  // a benchmark waiting for its daemon, not a test
}
guard let connection else { fatalError("assistantd did not start") }
for i in 1...5 { _ = try await connection.call("tasks.add", params: ["title": .string("Task \(i)")]) }

/// `assistantctl mcp` with its standard input and output as pipes, read line by line.
final class Session {
    let process = Process()
    let input = Pipe()
    let output = Pipe()
    var pending: [UInt8] = []

    init() throws {
        process.executableURL = URL(fileURLWithPath: binDir + "/assistantctl")
        process.arguments = ["mcp"]
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    func readLine() -> String {
        while true {
            if let end = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<end], as: UTF8.self)
                pending.removeSubrange(...end)
                return line
            }
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { fatalError("assistantctl mcp ended") }
            pending += chunk
        }
    }

    func request(_ id: Int, _ method: String, _ params: String) -> String {
        send(#"{"jsonrpc":"2.0","id":\#(id),"method":"\#(method)","params":\#(params)}"#)
        return readLine()
    }

    func end() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}

let initialize = #"{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"bench","version":"1"}}"#
var starts: [Double] = []
for _ in 0..<10 {
    let start = DispatchTime.now().uptimeNanoseconds
    let session = try Session()
    _ = session.request(1, "initialize", initialize)
    starts.append(milliseconds(since: start))
    session.end()
}

let session = try Session()
_ = session.request(1, "initialize", initialize)
session.send(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#)
var lists: [Double] = []
var listBytes = 0
for i in 0..<50 {
    let start = DispatchTime.now().uptimeNanoseconds
    listBytes = session.request(100 + i, "tools/list", "{}").utf8.count
    lists.append(milliseconds(since: start))
}
// Warm both, then take turns so neither side always runs on a busier machine.
var viaMCP: [Double] = []
var viaSocket: [Double] = []
let call = #"{"name":"tasks.list","arguments":{"when":"all"}}"#
for i in 0..<20 {
    _ = session.request(1000 + i, "tools/call", call)
    _ = try await connection.call("tasks.list", params: ["when": "all"])
}
for i in 0..<runs {
    var start = DispatchTime.now().uptimeNanoseconds
    let reply = session.request(2000 + i, "tools/call", call)
    viaMCP.append(milliseconds(since: start))
    guard reply.contains(#""isError":false"#) else { fatalError("the call failed: \(reply.prefix(300))") }
    start = DispatchTime.now().uptimeNanoseconds
    _ = try await connection.call("tasks.list", params: ["when": "all"])
    viaSocket.append(milliseconds(since: start))
}
session.end()
await connection.close()
daemon.terminate()
daemon.waitUntilExit()
try? FileManager.default.removeItem(atPath: directory)

print("assistantctl mcp (release build), \(ProcessInfo.processInfo.activeProcessorCount) cores\n")
print("| measure | median | floor (same run) | ratio | target |")
print("|---|---|---|---|---|")
print(String(format: "| start to initialized | %.1f ms | | | < 100 ms |", median(starts)))
print(String(format: "| tools/list (every plugin, %d KB) | %.2f ms | | | < 20 ms |", listBytes / 1024, median(lists)))
print(
    String(
        format: "| tasks.list tool call (5 tasks) | %.3f ms | %.3f ms over the socket | %.2f× | ≤ 1.3× |", median(viaMCP), median(viaSocket),
        median(viaMCP) / median(viaSocket)))
