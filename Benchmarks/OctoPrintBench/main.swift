import AssistantClient
import AssistantTesting
import Foundation
import HostCore

// The OctoPrint upload benchmark (issue 3): a 50 MB G-code file uploaded by the daemon
// (`octoprint.files.upload`, streamed) and by curl to the same real OctoPrint in the same run,
// alternating, three times each; and the daemon's peak resident memory during its uploads
// (VmHWM after resetting it through /proc/PID/clear_refs). Run with scripts/bench-octoprint.

let megabytes = Int(CommandLine.arguments.dropFirst().first ?? "") ?? 50
let runs = 3

func status(_ pid: Int32, _ field: String) -> Int {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

let work = TemporaryDirectory(prefix: "octoprint-bench")
let file = work.file("big.gcode")
do {
    // Real-looking G-code lines, deterministic.
    var text = ""
    var i = 0
    _ = FileManager.default.createFile(atPath: file, contents: nil)
    let handle = FileHandle(forWritingAtPath: file)!
    while (try handle.offset()) < UInt64(megabytes) * 1_000_000 {
        text.removeAll(keepingCapacity: true)
        for _ in 0..<10_000 {
            text += "G1 X\(i % 200).\(i % 10) Y\((i * 7) % 200).\(i % 7) E\(i % 1000).0\(i % 9) F1800\n"
            i += 1
        }
        try handle.write(contentsOf: Data(text.utf8))
    }
    try handle.close()
}
let size = (try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? 0
print("file: \(size / 1_000_000) MB")

let octoprint = try await OctoPrintPeer(analysis: false)
let daemon = try await DaemonProcess.started()
guard let pid = await daemon.process.processIdentifier() else { fatalError("assistantd is not running") }
let connection = try await daemon.connect()
_ = try await connection.call(
    "octoprint.printers.add", params: ["name": "bench", "url": .string(octoprint.url), "api_key": .string(octoprint.apiKey)])

var daemonTimes: [Double] = []
var curlTimes: [Double] = []
var growth: [Int] = []
let clock = ContinuousClock()
for run in 0..<runs {
    let before = status(pid, "VmRSS")
    try? "5".write(toFile: "/proc/\(pid)/clear_refs", atomically: false, encoding: .utf8)  // resets VmHWM to the current RSS
    let d = try await clock.measure {
        _ = try await connection.call("octoprint.files.upload", params: ["file": .string(file), "path": .string("d\(run)")])
    }
    growth.append(status(pid, "VmHWM") - before)
    daemonTimes.append(ms(d))
    let c = try await clock.measure {
        let r = try await runCommand(
            "/usr/bin/curl",
            [
                "-s", "-o", "/dev/null", "-w", "%{http_code}", "-H", "X-Api-Key: \(octoprint.apiKey)", "-F", "file=@\(file)",
                "-F", "path=c\(run)", "\(octoprint.url)/api/files/local",
            ], environment: ProcessInfo.processInfo.environment)
        precondition(r.stdout == "201", "curl upload failed: \(r.stdout) \(r.stderr)")
    }
    curlTimes.append(ms(c))
}
print("")
print("| \(size / 1_000_000) MB G-code upload | median | runs |")
print("|---|---|---|")
print(
    String(
        format: "| assistantd `octoprint.files.upload` | %.0f ms | %@ |", median(daemonTimes),
        daemonTimes.map { String(format: "%.0f", $0) }.joined(separator: ", ")))
print(String(format: "| curl -F | %.0f ms | %@ |", median(curlTimes), curlTimes.map { String(format: "%.0f", $0) }.joined(separator: ", ")))
print(String(format: "| ratio | %.2f× | |", median(daemonTimes) / median(curlTimes)))
print(
    "daemon resident memory growth during an upload (VmHWM − VmRSS before): \(growth.map { "\($0 / 1024) MB" }.joined(separator: ", ")) "
        + "(\(growth.map(String.init).joined(separator: ", ")) kB)"
)
await connection.close()
await daemon.signal(SIGTERM)
_ = try await daemon.exitStatus()
octoprint.stop()
