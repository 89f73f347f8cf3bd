import Foundation
import HostCore
import PluginKit
import Testing

@testable import Stag

/// STAG's answers are decoded into rows by STAG's keys, straight from the parsed JSON: each quirk
/// is a field's reading, an odd field reads as nil without losing its row, and an odd row is
/// left out without losing its list.
@Suite struct StagRowsTests {
    @Test func eachFieldReadsItsQuirk() throws {
        let json: JSONValue = [
            "termIdno": "4711", "katedra": "KIV", "predmet": "PPA1", "datum": ["value": "5.1.2027"], "casOd": "9:00:00", "casDo": ["value": "10:30"],
            "obsazeni": 3, "limit": "null", "zapsan": true, "lzeZapsatOdepsat": "N",
            "ucitel": ["jmeno": "Jan", "prijmeni": "Novák", "titulZa": "Ph.D."],
            "deadlineDatumPrihlaseni": ["value": "3.1.2027 23:59"], "poznamka": "",
        ]
        let row = try #require(JSONTreeDecoder.row(json, as: StagRow.Term.self))
        #expect(row.termIdno == 4711, "a number sent as a string")
        #expect(row.datum == "2027-01-05")
        #expect(row.casOd == "09:00" && row.casDo == "10:30", "HH:mm:ss and {\"value\": …} times")
        #expect(row.obsazeni == 3)
        #expect(row.limit == nil, "STAG's \"null\"")
        #expect(row.zapsan == true && row.lzeZapsatOdepsat == false, "a JSON boolean and an A/N flag")
        #expect(row.ucitel == "Jan Novák, Ph.D.", "a person object")
        #expect(row.deadlineDatumPrihlaseni == "2027-01-03T23:59")
        #expect(row.poznamka == nil, "an empty string")
        #expect(row.typTerminu == nil && row.budova == nil, "fields STAG left out")
    }

    @Test func anOddFieldReadsAsNilAndKeepsItsRow() throws {
        let json: JSONValue = ["datum": ["value": "23.11.2026"], "tydenZkr": 5, "roakIdno": ["x": 1], "nazev": [1, 2], "hodinaSkutOd": "25:99"]
        let row = try #require(JSONTreeDecoder.row(json, as: StagRow.Action.self))
        #expect(row.datum == "2026-11-23")
        #expect(row.tydenZkr == nil && row.roakIdno == nil && row.nazev == nil && row.hodinaSkutOd == nil)
        #expect(row.vsichniUciteleJmenaTitulySPodily == [])
    }

    @Test func anOddRowIsLeftOutOfItsList() {
        let list: [JSONValue] = [["termIdno": 1], .null, "text", 7, [["termIdno": 2]], ["termIdno": 3]]
        #expect(JSONTreeDecoder.rows(list, as: StagRow.Term.self).map(\.termIdno) == [1, 3])
        #expect(JSONTreeDecoder.row(.array([]), as: StagRow.Term.self) == nil, "an unknown subject's [] is no row")
    }

    @Test func nestedObjectsAndListsReadTheirRows() throws {
        let thesis = try #require(
            JSONTreeDecoder.row(
                ["temaHlavni": "Téma", "student": ["osCislo": "A20B0001P", "jmeno": "Eva", "prijmeni": "Malá"]], as: StagRow.Thesis.self))
        #expect(thesis.student?.osCislo == "A20B0001P" && thesis.student?.personName == "Eva Malá")
        #expect(JSONTreeDecoder.row(["student": "nobody"], as: StagRow.Thesis.self)?.student == nil, "a student that is not an object")
        let menu = try #require(
            JSONTreeDecoder.row(
                ["soups": [["name": "Polévka", "prices": [["type": "student", "price": 25.5], "x"]]], "mainCourses": "none"], as: StagRow.Menu.self))
        #expect(menu.soups.map(\.name) == ["Polévka"] && menu.soups.first?.prices.map(\.price) == [25.5])
        #expect(menu.mainCourses.isEmpty, "a list that is not one")
    }

    /// Credits only (no numeric grade): every average is an explicit null, in the terms and in
    /// the total, whose members come from the summary it shares with the terms.
    @Test func resultsWithoutAnAverageListItAsNull() throws {
        let credit: JSONValue = ["katedra": "KIV", "zkratka": "UPA", "rok": "2025", "semestr": "ZS", "kredity": "4", "zk_hodnoceni": "S"]
        let row = try #require(GradeRow(stag: credit, subjects: [:]))
        let json = try JSONValue.decode(bytes: try JSONStreamEncoder.encode(StudyResults([row])))
        #expect(json["total"]?["weighted_average"] == .null && json["total"]?["weighted_average_all"] == .null)
        #expect(json["total"]?.objectValue?.keys.contains("weighted_average") == true)
        let term = try #require(json["terms"]?.arrayValue?.first)
        #expect(term["weighted_average"] == .null && term.objectValue?.keys.contains("weighted_average") == true)
        #expect(json["total"]?["credits_obtained"] == 4)
        #expect(
            Cached<StudyResults>.resultSchema.problems(
                in: JSONValue.object((json.objectValue ?? [:]).merging(["stale": false, "fetched_at": "2026-11-26T00:00:00Z"]) { a, _ in a }),
                strict: true
            ).isEmpty)
    }

    struct Plain: Decodable {
        var count: Int32
    }

    /// A plain member of a type the tree decoder does not read is a failed row, not a loop.
    @Test func aPlainMemberOfAnotherTypeFailsItsRow() {
        #expect(JSONTreeDecoder.row(["count": "x"], as: Plain.self) == nil)
        #expect(JSONTreeDecoder.row(["count": 5], as: Plain.self) == nil)
    }
}
