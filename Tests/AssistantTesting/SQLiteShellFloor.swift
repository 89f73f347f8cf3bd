import Foundation

/// The benchmarks' floor for a query: the same SQL in the `sqlite3` shell on the same database,
/// `runs` times in one process, minus the same process running `SELECT 1`; best of three, in ms.
public enum SQLiteShellFloor {
    public static func milliseconds(_ database: String, _ sql: String, runs: Int) throws -> Double {
        func timed(_ statement: String) throws -> Double {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
            process.arguments = ["-readonly", database]
            let input = Pipe()
            let output = Pipe()
            process.standardInput = input
            process.standardOutput = output
            let start = ContinuousClock.now
            try process.run()
            input.fileHandleForWriting.write(Data(String(repeating: statement + ";\n", count: runs).utf8))
            try input.fileHandleForWriting.close()
            _ = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let elapsed = ContinuousClock.now - start
            return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        }
        var best = Double.infinity
        for _ in 0..<3 { best = min(best, (try timed(sql) - timed("SELECT 1")) / Double(runs)) }
        return max(best, 0.001)
    }
}
