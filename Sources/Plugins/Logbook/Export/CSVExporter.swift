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
            // Text a person typed goes through the formula guard; numbers and times are ours.
            let text = FormulaGuard.neutralised
            var row: [String] = [
                e.kind.rawValue, e.date.description, text(e.dep ?? ""), text(e.arr ?? ""), e.out?.description ?? "", e.off?.description ?? "",
                e.on?.description ?? "", e.inAt?.description ?? "", text(e.registration ?? ""), text(a?.make ?? ""), text(a?.model ?? ""),
                text(a?.variant ?? ""), text(a?.typeDesignator ?? ""), text(a?.engine ?? ""), text(a?.operation ?? ""), text(a?.category ?? ""),
                text(a?.classRating ?? ""),
            ]
            row += e.times.map(String.init)
            row += e.counts.map(String.init)
            row += [
                text(e.picName ?? ""), text(e.remarks), e.dutyStart?.description ?? "", e.dutyEnd?.description ?? "", text(e.fstdType ?? ""),
                text(e.fstdQualification ?? ""),
            ]
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
