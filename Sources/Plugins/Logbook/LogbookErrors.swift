import HostCore

/// The logbook's own error codes (block 1100–1199, listed in the README).
enum LogbookError {
    /// Every code this plugin sends, in its block (checked when the plugin registers).
    static let block = ErrorBlock(
        1100...1199,
        codes: [
            1101: "the aircraft exists",
            1102: "the aircraft is used by flights",
            1103: "the flight is already logged",
            1104: "the import file has bad rows",
            1105: "the medical's validity needs the date of birth",
            1106: "a file cannot be used",
            1107: "the PDF could not be rendered",
        ])

    static func aircraftExists(_ reg: String) -> RPCError {
        RPCError(
            code: 1101, message: "Aircraft \(reg) is already in the logbook; change it with logbook.aircraft.update",
            data: ["registration": .string(reg)])
    }
    static func aircraftInUse(_ reg: String, flights: Int) -> RPCError {
        RPCError(
            code: 1102, message: "Aircraft \(reg) is used by \(flights) flight\(flights == 1 ? "" : "s"); delete or reassign them first",
            data: ["registration": .string(reg), "flights": .count(flights)])
    }
    static func duplicateFlight(_ e: Entry) -> RPCError {
        RPCError(
            code: 1103, message: "This flight is already logged (same date, dep, arr, out and aircraft)",
            data: [
                "date": .string(e.date.description), "dep": .string(e.dep ?? ""), "arr": .string(e.arr ?? ""),
                "out": .string(e.out?.description ?? ""), "aircraft": .string(e.registration ?? ""),
            ])
    }
    static func badRows(_ rows: [JSONValue], count: Int? = nil) -> RPCError {
        let count = count ?? rows.count
        return RPCError(
            code: 1104, message: "The file has \(count) bad row\(count == 1 ? "" : "s"); nothing was imported (fix them, or pass skip_invalid=true)",
            data: ["bad_rows": .array(Array(rows.prefix(200))), "bad_row_count": .count(count)])
    }
    static func needsBirthDate() -> RPCError {
        RPCError(
            code: 1105,
            message:
                "The medical's validity depends on your age: set your date of birth with logbook.profile.set date_of_birth=YYYY-MM-DD, or give expiry_date as printed on the certificate"
        )
    }
    static func file(_ path: String, _ problem: String) -> RPCError {
        RPCError(code: 1106, message: "Cannot use '\(path)': \(problem)", data: ["path": .string(path)])
    }
    static func pdf(_ problem: String) -> RPCError {
        RPCError(code: 1107, message: "Could not render the PDF: \(problem)")
    }
}
