// Measures assistantd in a release build: `ping` throughput and p50/p99 latency with 1 and 16
// closed-loop clients beside the C echo floor and a bare NIO server (same socket kind, same
// clients, same run), start-to-ready time, and idle resident memory. Run: scripts/bench
import Foundation

struct Options {
    var seconds = 5.0
    var clients = [1, 16]
    var startRuns = 10
    var binDir = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
}

func parseOptions() -> Options {
    var options = Options()
    var arguments = CommandLine.arguments.dropFirst()
    while let argument = arguments.popFirst() {
        switch argument {
        case "--seconds": options.seconds = Double(arguments.popFirst() ?? "") ?? options.seconds
        case "--bin-dir": options.binDir = arguments.popFirst() ?? options.binDir
        case "--start-runs": options.startRuns = Int(arguments.popFirst() ?? "") ?? options.startRuns
        default:
            FileHandle.standardError.write(Data("usage: ping-bench [--seconds S] [--start-runs N] [--bin-dir DIR]\n".utf8))
            exit(64)
        }
    }
    return options
}

let options = parseOptions()

func makeTemporaryDirectory() -> String {
    var template = Array("/tmp/bench-XXXXXX".utf8CString)
    _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: template.map { UInt8(bitPattern: $0) })
}

func sockaddrFor(_ path: String) -> sockaddr_un {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (i, b) in path.utf8.enumerated() { raw[i] = b }
    }
    return address
}

func connectTo(_ path: String) -> Int32? {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddrFor(path)
    let ok = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    if ok != 0 {
        close(fd)
        return nil
    }
    return fd
}

/// One closed-loop client: send a ping, wait for the whole reply line, repeat until the deadline.
final class Client: @unchecked Sendable {
    var latencies: [UInt64] = []
    let path: String
    let deadline: UInt64
    init(path: String, deadline: UInt64) {
        self.path = path
        self.deadline = deadline
        latencies.reserveCapacity(1 << 20)
    }

    func run() {
        guard let fd = connectTo(path) else { fatalError("cannot connect to \(path)") }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        var id = 0
        while true {
            let start = DispatchTime.now().uptimeNanoseconds
            if start >= deadline { break }
            id += 1
            let request = Array("{\"jsonrpc\":\"2.0\",\"id\":\(id),\"method\":\"ping\"}\n".utf8)
            _ = request.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            var done = false
            while !done {
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { return }
                done = buffer[0..<n].contains(0x0A)
            }
            latencies.append(DispatchTime.now().uptimeNanoseconds - start)
        }
    }
}

struct LoadResult {
    var throughput: Double
    var p50: Double
    var p99: Double
}

func load(path: String, clients: Int, seconds: Double) -> LoadResult {
    // Warm-up, then the measured window.
    for warm in [true, false] {
        let duration = warm ? min(1.0, seconds / 5) : seconds
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(duration * 1e9)
        let workers = (0..<clients).map { _ in Client(path: path, deadline: deadline) }
        let group = DispatchGroup()
        let started = DispatchTime.now().uptimeNanoseconds
        for worker in workers {
            group.enter()
            Thread.detachNewThread {
                worker.run()
                group.leave()
            }
        }
        group.wait()
        if warm { continue }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        var all = workers.flatMap(\.latencies)
        all.sort()
        func percentile(_ p: Double) -> Double { all.isEmpty ? .nan : Double(all[min(all.count - 1, Int(Double(all.count) * p))]) / 1000 }
        return LoadResult(throughput: Double(all.count) / elapsed, p50: percentile(0.50), p99: percentile(0.99))
    }
    fatalError("unreachable")
}

/// Spawns a process and returns it with its readiness time (READY=1 on NOTIFY_SOCKET, or a first
/// stdout line for the floor).
func spawnDaemon(_ directory: String, binDir: String) -> (Process, Double) {
    let notifyPath = directory + "/notify"
    unlink(notifyPath)
    let notifyFD = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
    var address = sockaddrFor(notifyPath)
    _ = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(notifyFD, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    defer { close(notifyFD) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binDir + "/assistantd")
    process.environment = [
        "HOME": directory, "XDG_RUNTIME_DIR": directory, "XDG_DATA_HOME": directory + "/data", "XDG_CONFIG_HOME": directory + "/config",
        "NOTIFY_SOCKET": notifyPath, "PATH": "/usr/bin:/bin",
    ]
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    let start = DispatchTime.now().uptimeNanoseconds
    try! process.run()
    var buffer = [UInt8](repeating: 0, count: 512)
    while true {
        let n = recv(notifyFD, &buffer, buffer.count, 0)
        if n <= 0 { fatalError("no readiness from assistantd") }
        if String(decoding: buffer[0..<n], as: UTF8.self).contains("READY=1") { break }
    }
    return (process, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
}

func residentKB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
    return 0
}

/// RSS, PSS and private dirty memory (`/proc/PID/smaps_rollup`), in kB.
func smapsRollup(_ pid: Int32) -> (rss: Int, pss: Int, privateDirty: Int) {
    let text = (try? String(contentsOfFile: "/proc/\(pid)/smaps_rollup", encoding: .utf8)) ?? ""
    func field(_ name: String) -> Int {
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
        }
        return 0
    }
    return (field("Rss"), field("Pss"), field("Private_Dirty"))
}

func stop(_ process: Process) {
    process.terminate()
    process.waitUntilExit()
}

print("assistantd benchmark (release build), \(ProcessInfo.processInfo.activeProcessorCount) cores, \(options.seconds) s per load point\n")

// Start-to-ready: a fresh data directory each time the first run, then the same one (warm).
var startTimes: [Double] = []
let startDirectory = makeTemporaryDirectory()
for _ in 0..<options.startRuns {
    let (process, ms) = spawnDaemon(startDirectory, binDir: options.binDir)
    startTimes.append(ms)
    stop(process)
}
startTimes.sort()
print(
    String(
        format: "start to ready (READY=1): median %.1f ms, min %.1f ms, max %.1f ms over %d starts", startTimes[startTimes.count / 2],
        startTimes.first!, startTimes.last!, startTimes.count))

// The binary was linked moments ago (scripts/bench builds it): until the kernel writes its pages
// back, a process mapping them counts them as its own dirty memory (15 MB of this daemon's
// "private dirty" was its freshly written executable). Flush first, so the reading is the
// daemon's memory and not the build's.
sync()
let directory = makeTemporaryDirectory()
let (daemon, _) = spawnDaemon(directory, binDir: options.binDir)
Thread.sleep(forTimeInterval: 2)  // settle before reading idle memory (this is a benchmark, not a test)
let idle = smapsRollup(daemon.processIdentifier)
print(
    String(
        format: "idle memory: RSS %.1f MB, PSS %.1f MB, private dirty %.1f MB", Double(idle.rss) / 1024, Double(idle.pss) / 1024,
        Double(idle.privateDirty) / 1024))

/// Starts a floor server and waits for its "ready" line.
func startFloor(_ executable: String, socket: String) -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: options.binDir + "/" + executable)
    process.arguments = [socket]
    let output = Pipe()
    process.standardOutput = output
    try! process.run()
    _ = output.fileHandleForReading.availableData  // "ready"
    return process
}

let floorPath = directory + "/floor.sock"
let floor = startFloor("echo-floor", socket: floorPath)
let nioFloorPath = directory + "/nio-floor.sock"
let nioFloor = startFloor("nio-floor", socket: nioFloorPath)

let daemonPath = directory + "/assistant/assistantd.sock"
print(
    "\n| clients | assistantd req/s | p50 µs | p99 µs | C floor req/s | floor p50 µs | floor p99 µs | NIO floor req/s | NIO p50 µs | vs C "
        + "floor | vs "
        + "NIO floor |"
)
print("|---|---|---|---|---|---|---|---|---|---|---|")
for clients in options.clients {
    // Taking turns, three rounds each, in a rotating order, so no side always runs on a warmer
    // (or busier) machine; the round with the median throughput is reported for each.
    let paths = [daemonPath, floorPath, nioFloorPath]
    var rounds: [[LoadResult]] = [[], [], []]
    for round in 0..<3 {
        for turn in 0..<3 {
            let side = (round + turn) % 3
            rounds[side].append(load(path: paths[side], clients: clients, seconds: options.seconds / 3))
        }
    }
    let median = rounds.map { $0.sorted { $0.throughput < $1.throughput }[1] }
    let (d, f, n) = (median[0], median[1], median[2])
    print(
        String(
            format: "| %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f%% | %.0f%% |", clients, d.throughput, d.p50, d.p99,
            f.throughput, f.p50, f.p99, n.throughput, n.p50, 100 * d.throughput / f.throughput, 100 * d.throughput / n.throughput))
}
let loadedRSS = residentKB(daemon.processIdentifier)
print(String(format: "\nresident memory after the load: %.1f MB", Double(loadedRSS) / 1024))
stop(floor)
stop(nioFloor)
stop(daemon)
try? FileManager.default.removeItem(atPath: directory)
try? FileManager.default.removeItem(atPath: startDirectory)
