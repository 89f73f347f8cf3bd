import CSV
import Foundation

/// The native CSV: one row per entry with every stored field, durations in integer minutes and
/// times in ISO 8601 UTC, so `logbook.import` reads it back to the same records.
enum CSVExporter {
    static func render(_ entries: [Entry], aircraft: [String: Aircraft]) throws -> Data {
        let stream = OutputStream.toMemory()
        stream.open()
        let writer = try CSVWriter(stream: stream)
        try writer.write(row: ImportFormat.nativeColumns)
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
            try writer.write(row: row)
        }
        writer.stream.close()
        guard let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data else {
            throw RPCError(code: 1106, message: "the CSV could not be assembled in memory")
        }
        return data
    }
}

import HostCore
