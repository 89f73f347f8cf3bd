import Foundation

/// The native CSV: one row per entry with every stored field, durations in integer minutes and
/// times in ISO 8601 UTC, so `logbook.import` reads it back to the same records.
enum CSVExporter {
    static func render(_ entries: [Entry], aircraft: [String: Aircraft]) -> Data {
        var out: [UInt8] = []
        out.reserveCapacity(entries.count * 220)
        write(ImportFormat.nativeColumns, into: &out)
        for e in entries {
            let a = e.registration.flatMap { aircraft[$0] }
            var row: [String] = [
                e.kind.rawValue, e.date.description, e.dep ?? "", e.arr ?? "", e.out?.description ?? "", e.off?.description ?? "",
                e.on?.description ?? "", e.inAt?.description ?? "", e.registration ?? "", a?.make ?? "", a?.model ?? "",
                a?.variant ?? "", a?.typeDesignator ?? "", a?.engine ?? "", a?.operation ?? "", a?.category ?? "", a?.classRating ?? "",
            ]
            row += e.times.map(String.init)
            row += e.counts.map(String.init)
            row += [e.picName ?? "", e.remarks, e.dutyStart?.description ?? "", e.dutyEnd?.description ?? "", e.fstdType ?? "",
                    e.fstdQualification ?? ""]
            write(row, into: &out)
        }
        return Data(out)
    }

    /// RFC 4180 quoting, written by hand: CSV.swift's writer (used for reading) emits one byte per
    /// stream call, which made a 100 000-flight export take ten seconds.
    static func write(_ row: [String], into out: inout [UInt8]) {
        for (i, field) in row.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            if field.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) {
                out.append(34)
                for b in field.utf8 {
                    if b == 34 { out.append(34) }
                    out.append(b)
                }
                out.append(34)
            } else {
                out.append(contentsOf: field.utf8)
            }
        }
        out.append(10)
    }
}
