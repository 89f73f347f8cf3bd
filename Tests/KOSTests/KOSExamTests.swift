import Foundation
import HostCore
import Testing

@testable import KOS

/// An exam date decoded from KOSapi's Atom entry into fields (as the fake's `exam_xml` writes
/// it, from the reference's recordings); its kind is an enum and the result round-trips.
@Suite struct KOSExamTests {
    static func entry(
        _ id: String = "1234567", termType: String = "FINAL_EXAM", occupied: Int = 20, capacity: Int = 20, start: String = "2027-01-20T09:00:00"
    )
        throws -> AtomDocument.Entry
    {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><atom:entry xmlns="http://kosapi.feld.cvut.cz/schema/3" \
            xmlns:atom="http://www.w3.org/2005/Atom" xmlns:xlink="http://www.w3.org/1999/xlink" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xml:base="http://kos.test/api/3" xml:lang="cs">\
            <atom:id>urn:cvut:kos:exam:\(id)</atom:id><atom:content atom:type="xml" xsi:type="exam">\
            <cancelDeadline>2027-01-19</cancelDeadline><capacity>\(capacity)</capacity>\
            <course xlink:href="courses/BI-PA1/">Programování a algoritmizace 1</course><endDate>2027-01-20T11:30:00</endDate>\
            <examiners><teacher xlink:href="teachers/dvorakto/">Ing. Tomáš Dvořák Ph.D.</teacher></examiners>\
            <occupied>\(occupied)</occupied><room xlink:href="rooms/TH:A-1442/">TH:A-1442</room>\
            <signinDeadline>2027-01-18</signinDeadline><startDate>\(start)</startDate><termType>\(termType)</termType>\
            </atom:content></atom:entry>
            """
        return try #require(try AtomDocument(parsing: Data(xml.utf8)).entries.first)
    }

    @Test func theEntryBecomesFields() throws {
        let exam = try #require(KOSExam(try Self.entry(), registered: ["1234567"]))
        #expect(exam.id == "1234567")
        #expect(exam.course == "BI-PA1", "from the course link")
        #expect(exam.start == "2027-01-20T09:00", "to the minute")
        #expect(exam.when == "2027-01-20 09:00–11:30")
        #expect(exam.full)
        #expect(exam.kind == .exam)
        #expect(exam.registered)
        #expect(exam.examiners == ["Ing. Tomáš Dvořák Ph.D."])
        #expect(exam.seats(.en) == "20/20 seats taken")
        #expect(exam.seats(.cs) == "obsazeno 20/20 míst")
        #expect(try #require(KOSExam(try Self.entry(termType: "ASSESSMENT", occupied: 3), registered: [])).kind == .assessment)
        #expect(try #require(KOSExam(try Self.entry(occupied: 3), registered: [])).full == false)
        #expect(KOSExam(try Self.entry(start: " "), registered: []) == nil, "an exam without its start is left out")
    }

    @Test func theResultListsEveryMemberAndReadsBack() throws {
        let exam = try #require(KOSExam(try Self.entry(), registered: []))
        let json = exam.json
        #expect(json["kind"] == "exam")
        #expect(json["registered"] == false)
        #expect(json.objectValue?.count == 13)
        #expect(try KOSExam(json: json) == exam)
        #expect(KOSExam.resultSchema.problems(in: json, strict: true).isEmpty)
    }
}
