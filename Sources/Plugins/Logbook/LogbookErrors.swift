import PluginKit

/// The logbook's own errors (block 1100–1199). Each case is one code with one meaning; code that
/// handles an error matches the case.
enum LogbookError: PluginErrorCase {
    case aircraftExists(String)
    case aircraftInUse(String, flights: Int)
    case duplicateFlight(Entry)
    case badRows([JSONValue], count: Int)
    case needsBirthDate
    case file(String, String)
    case pdf(String)
    case dutyOverlaps(Int64, start: UTCMinute, end: UTCMinute)

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
            1108: "the duty overlaps another",
        ])

    static func badRows(_ rows: [JSONValue]) -> LogbookError { .badRows(rows, count: rows.count) }

    var code: Int {
        switch self {
        case .aircraftExists: 1101
        case .aircraftInUse: 1102
        case .duplicateFlight: 1103
        case .badRows: 1104
        case .needsBirthDate: 1105
        case .file: 1106
        case .pdf: 1107
        case .dutyOverlaps: 1108
        }
    }

    var message: String {
        switch self {
        case .aircraftExists(let reg): "Aircraft \(reg) is already in the logbook; change it with logbook.aircraft.update"
        case .aircraftInUse(let reg, let flights):
            "Aircraft \(reg) is used by \(flights) flight\(flights == 1 ? "" : "s"); delete or reassign them first"
        case .duplicateFlight: "This flight is already logged (same date, dep, arr, out and aircraft)"
        case .badRows(_, let count):
            "The file has \(count) bad row\(count == 1 ? "" : "s"); nothing was imported (fix them, or pass skip_invalid=true)"
        case .needsBirthDate:
            "The medical's validity depends on your age: set your date of birth with logbook.profile.set date_of_birth=YYYY-MM-DD, "
                + "or give expiry_date as printed on the certificate"
        case .file(let path, let problem): "Cannot use '\(path)': \(problem)"
        case .pdf(let problem): "Could not render the PDF: \(problem)"
        case .dutyOverlaps(let id, let start, let end):
            "It overlaps duty \(id) (\(start) to \(end)); change that one with logbook.duty.update, or delete it first"
        }
    }

    var data: JSONValue? {
        switch self {
        case .aircraftExists(let reg): ["registration": .string(reg)]
        case .aircraftInUse(let reg, let flights): ["registration": .string(reg), "flights": .count(flights)]
        case .duplicateFlight(let e):
            [
                "date": .string(e.date.description), "dep": .string(e.dep ?? ""), "arr": .string(e.arr ?? ""),
                "out": .string(e.out?.description ?? ""), "aircraft": .string(e.registration ?? ""),
            ]
        case .badRows(let rows, let count): ["bad_rows": .array(Array(rows.prefix(200))), "bad_row_count": .count(count)]
        case .file(let path, _): ["path": .string(path)]
        case .dutyOverlaps(let id, let start, let end):
            ["duty": .int(id), "start": .string(start.description), "end": .string(end.description)]
        case .needsBirthDate, .pdf: nil
        }
    }
}
