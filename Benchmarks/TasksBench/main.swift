import AssistantClient
import AssistantTesting
import Foundation
import HostCore
import Tasks

// The tasks benchmark (issue 11), release build, run by scripts/bench-tasks:
//   tasks-bench [store]      10 000 tasks (2 000 repeating) with 30 000 reminders: list today and a
//                            month's agenda beside the sqlite3 shell, idle CPU, resident memory,
//                            ICS export/import beside Python's icalendar on the same file
//   tasks-bench store --no-reminders   the same tasks without reminders (the memory baseline)
//   tasks-bench caldav       2 000 items synced to Radicale: first sync, and an incremental
//                            sync after 10 changes, with the requests counted

let arguments = Array(CommandLine.arguments.dropFirst())
let mode = arguments.first ?? "store"
let withReminders = !arguments.contains("--no-reminders")
let runs = 30

enum BenchError: Error { case unexpectedReply(String) }

func cpuSeconds() -> Double {
    var usage = rusage()
    getrusage(RUSAGE_SELF.rawValue, &usage)
    return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6 + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
}

func timedPython(_ code: String, _ argument: String) -> Double? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: Peers.python)
    process.arguments = ["-c", code, argument]
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return nil }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
}

/// Adds `count` tasks over `connections` connections; every 5th repeats.
func populate(_ host: TestHost, count: Int, reminders: Bool) async throws {
    let rules = [
        "FREQ=DAILY", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "FREQ=MONTHLY;BYMONTHDAY=15", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "FREQ=MONTHLY;BYDAY=-1FR",
    ]
    let categories = ["school", "work", "personal", "meeting", "errand", "health", "sport"]
    let connections = 8
    try await withThrowingTaskGroup(of: Void.self) { group in
        for c in 0..<connections {
            group.addTask {
                let connection = try await host.connect()
                var i = c
                while i < count {
                    let day = (i * 37) % 360 - 180  // spread over a year around today
                    let start = Date().addingTimeInterval(Double(day) * 86_400)
                    let f = ISO8601DateFormatter()
                    var params: [String: JSONValue] = [
                        "title": .string("Task \(i) \(categories[i % 7])"), "category": .string(categories[i % 7]),
                        "priority": .int(Int64(i % 10)), "notes": "Generated for the benchmark",
                    ]
                    let isEvent = i % 2 == 0
                    if isEvent {
                        params["kind"] = "event"
                        params["start"] = .string(f.string(from: start))
                        params["duration_min"] = 60
                    } else {
                        params["due"] = .string(f.string(from: start))
                    }
                    if i % 5 == 0 {
                        params["rrule"] = .string(rules[(i / 5) % rules.count])
                        params["start"] = .string(f.string(from: start.addingTimeInterval(-200 * 86_400)))
                        params["due"] = isEvent ? nil : .string(f.string(from: start.addingTimeInterval(-200 * 86_400 + 3600)))
                    }
                    if reminders {
                        params["reminders"] =
                            isEvent
                            ? [["before_min": 10, "of": "start"], ["before_min": 60, "of": "start"], ["before_min": 1440, "of": "start"]]
                            : [["before_min": 0, "of": "due"], ["before_min": 30, "of": "due"], ["before_min": 1440, "of": "due"]]
                    }
                    _ = try await connection.callResult("tasks.add", params: .object(params)).get()
                    i += connections
                }
                await connection.close()
            }
        }
        try await group.waitForAll()
    }
}

/// Fills a host with the 10 000 tasks, prints the memory figures, and restarts it on the data.
func populatedAndRestarted(into directory: TemporaryDirectory) async throws -> TestHost {
    let before = residentMB()
    let host = try await TestHost.started(plugins: [TasksPlugin()], directory: directory) { $0.timeZone = TimeZone(identifier: "Europe/Prague")! }
    let started = residentMB()
    let fill = ContinuousClock.now
    try await populate(host, count: 10_000, reminders: withReminders)
    let fillTime = ms(ContinuousClock.now - fill)
    let filled = residentMB()
    print("populated 10 000 tasks (2 000 repeating, \(withReminders ? "30 000" : "no") reminders) in \(String(format: "%.1f", fillTime / 1000)) s")
    print(
        "resident: \(String(format: "%.1f", before)) MB before the host, \(String(format: "%.1f", started)) MB started, "
            + "\(String(format: "%.1f", filled)) MB with the tasks (+\(String(format: "%.1f", filled - started)) MB)"
    )

    // Restart on the same data: the start re-arms every reminder from the store.
    await host.stop()
    let restartBefore = residentMB()
    let again = try await TestHost.started(plugins: [TasksPlugin()], directory: host.directory) {
        $0.timeZone = TimeZone(identifier: "Europe/Prague")!
    }
    let restarted = residentMB()
    print(
        "restart with the data: \(String(format: "%.1f", restartBefore)) MB → \(String(format: "%.1f", restarted)) MB "
            + "(+\(String(format: "%.1f", restarted - restartBefore)) MB)"
    )

    return again
}

switch mode {
case "caldav":
    let peerDirectory = TemporaryDirectory(prefix: "radicale")
    let password = "bench-\(UUID().uuidString.prefix(6))"
    let server = try PeerProcess(Peers.python, [Peers.script("caldav_server.py"), "radicale", peerDirectory.path, "alice", password])
    defer { server.stop() }
    let port = try await server.announcedPort(within: 60, "radicale")
    let host = try await TestHost.started(plugins: [TasksPlugin()])
    try await populate(host, count: 2_000, reminders: false)
    _ = try await host.call(
        "tasks.caldav.add",
        [
            "name": "bench", "url": .string("http://127.0.0.1:\(port)/"), "username": "alice", "password": .string(password),
        ]
    ).get()
    func sync() async throws -> (Double, JSONValue) {
        let start = ContinuousClock.now
        let result = try await host.call("tasks.caldav.sync", ["name": "bench"]).get()
        return (ms(ContinuousClock.now - start), result["accounts"]?.arrayValue?.first ?? .null)
    }
    let (first, firstCounts) = try await sync()
    let (idle, idleCounts) = try await sync()
    let list = try await host.call("tasks.list", ["limit": 10]).get()["tasks"]?.arrayValue ?? []
    for t in list { _ = try await host.call("tasks.update", ["id": t["id"]!, "notes": "changed"]).get() }
    let (incremental, incrementalCounts) = try await sync()
    print("| sync (2 000 items, Radicale 3.9) | time | pushed | pulled | requests |")
    print("|---|---|---|---|---|")
    for (name, t, c) in [("first", first, firstCounts), ("no change", idle, idleCounts), ("after 10 local changes", incremental, incrementalCounts)] {
        print(
            "| \(name) | \(String(format: "%.0f", t)) ms | \(c["pushed"]?.intValue ?? -1) | \(c["pulled"]?.intValue ?? -1) | "
                + "\(c["requests"]?.intValue ?? -1) |"
        )
    }
    await host.stop()

default:
    // TASKS_BENCH_DATA=<directory>: rerun the queries on data kept from an earlier run, or, when
    // the directory holds none yet, fill it and keep it.
    let keptDirectory = ProcessInfo.processInfo.environment["TASKS_BENCH_DATA"].map(TemporaryDirectory.init(existing:))
    let kept = keptDirectory.flatMap { FileManager.default.fileExists(atPath: $0.file("data/assistant.sqlite")) ? $0 : nil }
    let again: TestHost
    if let kept {
        again = try await TestHost.started(plugins: [TasksPlugin()], directory: kept) { $0.timeZone = TimeZone(identifier: "Europe/Prague")! }
    } else {
        again = try await populatedAndRestarted(into: keptDirectory ?? TemporaryDirectory())
    }
    let connection = try await again.connect()
    /// The daemon's time (request sent → the reply's last byte read, on a raw socket: what the
    /// sqlite3 floor also measures) and a script's time (the same through AssistantClient, which
    /// parses the reply into JSONValue).
    let raw = try await RawLineClient(socketPath: again.directory.file("d.sock"))
    func timed(_ method: String, _ params: JSONValue) async throws -> (median: Double, p90: Double, parsed: Double, count: Int) {
        var times: [Double] = []
        var parsedTimes: [Double] = []
        var count = 0
        let request = String(
            decoding: JSONValue.object(["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params]).encodedBytes(), as: UTF8.self)
        for _ in 0..<runs {
            var start = ContinuousClock.now
            try await raw.send(line: request)
            let line = try await raw.readLine(timeout: 60)
            times.append(ms(ContinuousClock.now - start))
            guard let line, line.hasPrefix("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":") else {
                throw BenchError.unexpectedReply(String(line?.prefix(300) ?? "none"))
            }
            start = ContinuousClock.now
            let result = try await connection.callResult(method, params: params).get()
            parsedTimes.append(ms(ContinuousClock.now - start))
            count = (result["tasks"] ?? result["occurrences"])?.arrayValue?.count ?? 0
        }
        return (median(times), p90(times), median(parsedTimes), count)
    }
    // TASKS_BENCH_PROFILE=seconds: run each query alone for that long first (for `perf record -p`).
    if let seconds = ProcessInfo.processInfo.environment["TASKS_BENCH_PROFILE"].flatMap(Double.init) {
        for (method, params) in [
            ("tasks.list", ["when": "today"] as JSONValue),
            ("tasks.agenda", ["from": .string(ISO8601.string(Date())), "to": .string(ISO8601.string(Date().addingTimeInterval(30 * 86_400)))]),
        ] {
            print("profiling \(method) for \(seconds) s, pid \(getpid())")
            // On the raw socket, as the medians are timed: a profile of the daemon's work, not
            // of a client parsing the reply.
            let request = String(
                decoding: JSONValue.object(["jsonrpc": "2.0", "id": 1, "method": .string(method), "params": params]).encodedBytes(), as: UTF8.self)
            let end = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < end {
                try await raw.send(line: request)
                _ = try await raw.readLine(timeout: 60)
            }
        }
    }
    let database = again.directory.file("data") + "/assistant.sqlite"
    let now = Date().timeIntervalSince1970
    let today = try await timed("tasks.list", ["when": "today"])
    let month = try await timed(
        "tasks.agenda", ["from": .string(ISO8601.string(Date())), "to": .string(ISO8601.string(Date().addingTimeInterval(30 * 86_400)))])
    // One category: a seventh of the month, to show how the agenda's time follows its size.
    let monthOfOne = try await timed(
        "tasks.agenda",
        [
            "from": .string(ISO8601.string(Date())), "to": .string(ISO8601.string(Date().addingTimeInterval(30 * 86_400))), "category": "school",
        ])
    // The list's own query (it chooses, sorts and cuts in SQL) and the rows it shows read whole.
    let todayFloor = try SQLiteShellFloor.milliseconds(
        database, TasksListFloor.todaySQL(now: Date(), timeZone: TimeZone(identifier: "Europe/Prague")!), runs: runs)
    let monthFloor = try SQLiteShellFloor.milliseconds(
        database,
        "SELECT * FROM tasks_items WHERE deleted_at IS NULL AND first_at < \(now + 31 * 86_400) AND (last_at IS NULL OR last_at >= \(now - 86_400))",
        runs: runs)
    let monthOfOneFloor = try SQLiteShellFloor.milliseconds(
        database,
        "SELECT * FROM tasks_items WHERE deleted_at IS NULL AND category = 'school' AND first_at < \(now + 31 * 86_400) AND (last_at IS NULL OR "
            + "last_at >= \(now - 86_400))",
        runs: runs)
    print(
        "| query (10 000 tasks) | rows | median | p90 | through AssistantClient (parsed) | sqlite3 shell (list: its query and rows; agenda: "
            + "candidate rows) | ratio |"
    )
    print("|---|---|---|---|---|---|---|")
    print(
        "| tasks.list when=today | \(today.count) | \(String(format: "%.2f", today.median)) ms | \(String(format: "%.2f", today.p90)) ms | "
            + "\(String(format: "%.2f", today.parsed)) ms | \(String(format: "%.2f", todayFloor)) ms | "
            + "\(String(format: "%.1f", today.median / todayFloor))× |"
    )
    print(
        "| tasks.agenda, 30 days | \(month.count) | \(String(format: "%.2f", month.median)) ms | \(String(format: "%.2f", month.p90)) ms | "
            + "\(String(format: "%.2f", month.parsed)) ms | \(String(format: "%.2f", monthFloor)) ms | "
            + "\(String(format: "%.1f", month.median / monthFloor))× |"
    )
    print(
        "| tasks.agenda, 30 days, category=school | \(monthOfOne.count) | \(String(format: "%.2f", monthOfOne.median)) ms | "
            + "\(String(format: "%.2f", monthOfOne.p90)) ms | \(String(format: "%.2f", monthOfOne.parsed)) ms | "
            + "\(String(format: "%.2f", monthOfOneFloor)) ms | \(String(format: "%.1f", monthOfOne.median / monthOfOneFloor))× |"
    )

    if kept != nil { exit(0) }  // a rerun on kept data: the queries only

    // Idle: nothing due in the next 10 s (reminders are minutes apart); measure our CPU time.
    let cpu0 = cpuSeconds()
    try await Task.sleep(for: .seconds(10))
    let idleCPU = cpuSeconds() - cpu0
    print("idle 10 s with every reminder armed: \(String(format: "%.3f", idleCPU)) s CPU (\(String(format: "%.2f", idleCPU / 10 * 100)) %)")

    // ICS export and import, and Python icalendar on the same file.
    let exportPath = again.directory.file("all.ics")
    var start = ContinuousClock.now
    let exported = try await connection.callResult("tasks.export.ics", params: ["path": .string(exportPath)]).get()
    let exportTime = ms(ContinuousClock.now - start)
    let other = try await TestHost.started(plugins: [TasksPlugin()])
    start = ContinuousClock.now
    let imported = try await other.call("tasks.import.ics", ["path": .string(exportPath)]).get()
    let importTime = ms(ContinuousClock.now - start)
    let pyParse = timedPython(
        "import sys,time,icalendar\nd=open(sys.argv[1],'rb').read()\nt=time.perf_counter()\nc=icalendar.Calendar.from_ical(d)\nprint((time.perf_count"
            + "er()-t)*1000)",
        exportPath)
    let pyWrite = timedPython(
        "import sys,time,icalendar\nc=icalendar.Calendar.from_ical(open(sys.argv[1],'rb').read())\nt=time.perf_counter()\nc.to_ical()\nprint((time.pe"
            + "rf_counter()-t)*1000)",
        exportPath)
    print("| ICS (10 000 tasks, \(exported["bytes"]?.intValue ?? -1) bytes) | assistantd | Python icalendar 7.3 | ratio |")
    print("|---|---|---|---|")
    print(
        "| export (tasks.export.ics / to_ical) | \(String(format: "%.0f", exportTime)) ms | \(pyWrite.map { String(format: "%.0f", $0) } ?? "?") ms "
            + "| \(pyWrite.map { String(format: "%.2f", exportTime / $0) } ?? "?")× |"
    )
    print(
        "| import (tasks.import.ics / from_ical) | \(String(format: "%.0f", importTime)) ms (\(imported["added"]?.intValue ?? -1) added) | "
            + "\(pyParse.map { String(format: "%.0f", $0) } ?? "?") ms | \(pyParse.map { String(format: "%.2f", importTime / $0) } ?? "?")× |"
    )
    await connection.close()
    await other.stop()
    await again.stop()
}
