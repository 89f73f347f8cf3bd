import Foundation

// The figures every benchmark prints (release builds, `Benchmarks/`).

/// A duration in milliseconds.
public func ms(_ d: Duration) -> Double { Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15 }

public func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }

public func p90(_ values: [Double]) -> Double { values.sorted()[min(values.count - 1, Int(Double(values.count) * 0.9))] }

/// This process's resident set (`VmRSS`), in MB.
public func residentMB() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return (Double(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) / 1024
}
