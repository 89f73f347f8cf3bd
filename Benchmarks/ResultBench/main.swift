import AssistantRPC
import Foundation

// A result declared by its members list (`ResultObject`, one closure per member) against the
// same result declared as before, with `CodingKeys` and synthesized `Codable` (the floor), in the
// same run: writing a timetable of rows into a reply (`JSONStreamEncoder`), and reading it back as
// the offline cache does (Foundation's `JSONDecoder`). Run: swift run -c release result-bench [rows]

// The row is Stag's timetable event in shape (its type is internal to the plugin, and the floor
// needs a twin declared the old way anyway).
struct MemberRow: StoredResultObject, Equatable {
    var date = ""
    var start: String?
    var end: String?
    var subject: String?
    var name: String?
    var type: String?
    var room: String?
    var teachers: [String] = []
    var note: String?
    var role = ""
    var actionID: Int64?
    var termID: Int64?

    static let members = ResultMembers<Self>(
        .field("date", \.date, .date), .field("start", \.start), .field("end", \.end), .field("subject", \.subject),
        .field("name", \.name), .field("type", \.type), .field("room", \.room), .field("teachers", \.teachers), .field("note", \.note),
        .field("role", \.role), .field("action_id", \.actionID), .field("term_id", \.termID))
}

struct MemberAnswer: StoredResultObject {
    var events: [MemberRow] = []

    static let members = ResultMembers<Self>(.field("events", \.events))
}

struct CodableRow: Codable, Equatable {
    var date: String
    var start, end, subject, name, type, room: String?
    var teachers: [String]
    var note: String?
    var role: String
    var actionID: Int64?
    var termID: Int64?

    enum CodingKeys: String, CodingKey {
        case date, start, end, subject, name, type, room, teachers, note, role
        case actionID = "action_id", termID = "term_id"
    }
}

struct CodableAnswer: Codable {
    var events: [CodableRow]
}

let rows = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 200 : 200
var members = MemberAnswer()
var codable = CodableAnswer(events: [])
for i in 0..<rows {
    var row = MemberRow()
    row.date = "2026-10-\(10 + i % 20)"
    row.start = "09:15"
    row.end = i % 3 == 0 ? nil : "10:45"
    row.subject = "KIV/UPA"
    row.name = "Úvod do programování \(i)"
    row.type = "Cv"
    row.room = i % 4 == 0 ? nil : "UL-408"
    row.teachers = ["Ing. Jana Nováková, Ph.D."]
    row.role = "student"
    row.actionID = Int64(100_000 + i)
    members.events.append(row)
    codable.events.append(
        CodableRow(
            date: row.date, start: row.start, end: row.end, subject: row.subject, name: row.name, type: row.type, room: row.room,
            teachers: row.teachers, note: row.note, role: row.role, actionID: row.actionID, termID: row.termID))
}

func median(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs {
        let start = ContinuousClock.now
        try body()
        let elapsed = ContinuousClock.now - start
        times.append(Double(elapsed.components.attoseconds) / 1e12 + Double(elapsed.components.seconds) * 1e6)
    }
    return times.sorted()[times.count / 2]
}

let decoder = JSONDecoder()
let memberBytes = try JSONStreamEncoder.encode(members)
let codableBytes = try JSONStreamEncoder.encode(codable)
// The same answer either way, nulls aside (synthesized encoding leaves a nil out).
let readBack = try decoder.decode(MemberAnswer.self, from: Data(memberBytes))
precondition(readBack.events == members.events)
for _ in 0..<20 {
    _ = try JSONStreamEncoder.encode(members)
    _ = try JSONStreamEncoder.encode(codable)
    _ = try decoder.decode(MemberAnswer.self, from: Data(memberBytes))
    _ = try decoder.decode(CodableAnswer.self, from: Data(codableBytes))
}
let runs = 101
let writeMembers = try median(runs) { _ = try JSONStreamEncoder.encode(members) }
let writeCodable = try median(runs) { _ = try JSONStreamEncoder.encode(codable) }
let readMembers = try median(runs) { _ = try decoder.decode(MemberAnswer.self, from: Data(memberBytes)) }
let readCodable = try median(runs) { _ = try decoder.decode(CodableAnswer.self, from: Data(codableBytes)) }

func figure(_ value: Double) -> String { String(format: "%.0f µs", value) }
func ratio(_ a: Double, _ b: Double) -> String { String(format: "%.2f×", a / b) }
print("\(rows) timetable rows, 12 members each; median of \(runs) runs")
print("| | members list | CodingKeys + synthesized Codable (floor) | ratio |")
print("|---|---|---|---|")
print("| write (JSONStreamEncoder) | \(figure(writeMembers)) | \(figure(writeCodable)) | \(ratio(writeMembers, writeCodable)) |")
print("| read back (JSONDecoder) | \(figure(readMembers)) | \(figure(readCodable)) | \(ratio(readMembers, readCodable)) |")
