import Foundation
import HostCore
import Testing

@testable import Stag

/// An exam term decoded from STAG's row, quirks included, into fields; the state is an enum and
/// the result's encoding round-trips (the refresh's stored snapshot is read back as a term).
@Suite struct ExamTermTests {
    static func row(registered: String = "N", canChange: String = "N", occupied: JSONValue = "12", limit: JSONValue = "12") -> JSONValue {
        [
            "termIdno": "4711", "katedra": "KIV", "predmet": "PPA1", "typTerminu": "Zkouška", "datum": ["value": "20.1.2027"],
            "casOd": "9:00", "casDo": "11:30", "budova": "UU", "mistnost": "408", "ucitel": ["jmeno": "Jan", "prijmeni": "Novák"],
            "obsazeni": occupied, "limit": limit, "zapsan": .string(registered), "lzeZapsatOdepsat": .string(canChange),
            "deadlineDatumOdhlaseni": ["value": "19.1.2027 12:00"], "textDuvoduProcNelzeZapsatOdepsat": "Kapacita termínu je naplněna",
        ]
    }

    @Test func stagsRowBecomesFields() throws {
        let term = try #require(ExamTerm(stag: Self.row(), names: ["KIV/PPA1": "Programování 1"]))
        #expect(term.termID == 4711, "a number sent as a string")
        #expect(term.subject == "KIV/PPA1")
        #expect(term.title == "KIV/PPA1 Programování 1")
        #expect(term.date == "2027-01-20", "a {\"value\": d.M.yyyy} date")
        #expect(term.start == "09:00")
        #expect(term.room == "UU-408")
        #expect(term.unregisterDeadline == "2027-01-19T12:00")
        #expect(term.state == .full)
        #expect(term.reason == "Kapacita termínu je naplněna")
        #expect(term.seats(.en) == "12/12 seats taken")
        #expect(term.seats(.cs) == "obsazeno 12/12 míst")
    }

    @Test func theStateFollowsTheFlagsAndSeats() throws {
        #expect(ExamTerm(stag: Self.row(registered: "A"), names: [:])?.state == .registered)
        #expect(ExamTerm(stag: Self.row(canChange: "A", occupied: "3"), names: [:])?.state == .available)
        #expect(ExamTerm(stag: Self.row(occupied: "3"), names: [:])?.state == .closed)
        #expect(ExamTerm(stag: Self.row(limit: .null), names: [:])?.state == .closed, "no limit is never full")
        #expect(ExamTerm(stag: Self.row(registered: "A"), names: [:])?.reason == nil, "a registered term gives no reason")
        #expect(ExamTerm(stag: ["katedra": "KIV"], names: [:]) == nil, "a row without a term id is left out")
    }

    @Test func theResultListsEveryMemberAndReadsBack() throws {
        let term = try #require(ExamTerm(stag: Self.row(), names: [:]))
        let json = term.json
        #expect(json["name"] == .null, "an unknown name is null, not absent")
        #expect(json["state"] == "full")
        #expect(json["term_id"] == 4711)
        #expect(json.objectValue?.count == 16)
        #expect(try ExamTerm(json: json) == term)
        #expect(ExamTerm.resultSchema.problems(in: json, strict: true).isEmpty)
    }
}
