import Foundation
import GRDB
import HostCore
import Logging

// The plugin kit's one-shot timers at scale: arming N reminders on the scheduler (one heap, one
// waiting loop) against the floor of the design it replaced, one sleeping task per reminder,
// measured in the same run. Run: swift run -c release kit-bench [N]

func residentKiB() -> Int {
    let statm = (try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8)) ?? "0 0"
    let pages = Int(statm.split(separator: " ")[1]) ?? 0
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 50_000 : 50_000
let directory = NSTemporaryDirectory() + "kit-bench-\(getpid())"
try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: directory) }
let store = try Store(path: directory + "/b.sqlite", migrations: [], logger: Logger(label: "bench"))
let scheduler = JobScheduler(
    pool: store.pool, clock: SystemClock(), timeZone: .gmt, logger: Logger(label: "bench"), redactor: SecretRedactor())
let far = Date().addingTimeInterval(86_400)
// The scheduler's service, as the daemon runs it; `stopAll` ends it.
async let schedulerService: Void = scheduler.run()

// The kit: N one-shots, then re-arm all of them once (a reminder moved).
var before = residentKiB()
var start = ContinuousClock.now
for i in 0..<count { await scheduler.scheduleOnce(id: "bench.r\(i)", at: far.addingTimeInterval(Double(i))) {} }
let armTime = ContinuousClock.now - start
start = ContinuousClock.now
for i in 0..<count { await scheduler.scheduleOnce(id: "bench.r\(i)", at: far.addingTimeInterval(Double(count + i))) {} }
let rearmTime = ContinuousClock.now - start
let kitKiB = residentKiB() - before
await scheduler.stopAll()
await schedulerService

// The same N armed in one batch (how a plugin re-arms its reminders at start).
let batch = (0..<count).map { i in (id: "bench.b\(i)", at: far.addingTimeInterval(Double(i)), action: { @Sendable () async throws -> Void in }) }
start = ContinuousClock.now
await scheduler.scheduleOnce(batch)
let batchTime = ContinuousClock.now - start
await scheduler.stopAll()

// The floor: one task per reminder, each sleeping until its instant (the old design).
before = residentKiB()
start = ContinuousClock.now
var tasks: [Task<Void, Never>] = []
tasks.reserveCapacity(count)
for i in 0..<count {
    let delay = far.addingTimeInterval(Double(i)).timeIntervalSinceNow
    tasks.append(Task { try? await Task.sleep(for: .seconds(delay)) })
}
let floorTime = ContinuousClock.now - start
let floorKiB = residentKiB() - before
for task in tasks { task.cancel() }
for task in tasks { await task.value }

func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }
print("one-shots: \(count)")
print(
    String(
        format: "kit (heap + one loop):  arm %.0f ms, re-arm all %.0f ms, resident growth %.1f MB (%.0f bytes each)",
        ms(armTime), ms(rearmTime), Double(kitKiB) / 1024, Double(kitKiB * 1024) / Double(count)))
print(String(format: "kit, one batch:         arm %.0f ms", ms(batchTime)))
print(
    String(
        format: "floor (a task each):    arm %.0f ms, resident growth %.1f MB (%.0f bytes each)",
        ms(floorTime), Double(floorKiB) / 1024, Double(floorKiB * 1024) / Double(count)))
print(String(format: "memory kit / floor: %.2f", Double(kitKiB) / Double(max(floorKiB, 1))))
