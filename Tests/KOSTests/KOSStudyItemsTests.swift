import Foundation
import HostCore
import Testing

@testable import KOS

/// Timetable slots, course events and enrolments decoded from KOSapi's Atom entries into fields;
/// their results round-trip (the refresh reads its stored baseline back) and hold to the schema,
/// and the baseline keys are the ones earlier versions stored.
@Suite struct KOSStudyItemsTests {
    static func entries(_ content: String, type: String, id: String = "1") throws -> [AtomDocument.Entry] {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><atom:feed xmlns="http://kosapi.feld.cvut.cz/schema/3" \
            xmlns:atom="http://www.w3.org/2005/Atom" xmlns:xlink="http://www.w3.org/1999/xlink" \
            xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xml:base="http://kos.test/api/3" xml:lang="cs">\
            <atom:entry><atom:id>urn:cvut:kos:\(type):\(id)</atom:id><atom:content atom:type="xml" xsi:type="\(type)">\(content)</atom:content>\
            </atom:entry></atom:feed>
            """
        return try #require(AtomDocument(Data(xml.utf8))).entries
    }

    @Test func aParallelsSlotsBecomeFieldsWithTimesFromTheGrid() throws {
        let parallel = try Self.entries(
            """
            <code>101</code><course xlink:href="courses/BI-PA1/">Programování 1</course><parallelType>TUTORIAL</parallelType>\
            <teacher xlink:href="teachers/dvorakto/">Ing. Tomáš Dvořák</teacher>\
            <timetableSlot><day>2</day><duration>2</duration><firstHour>3</firstHour><parity>ODD</parity>\
            <room xlink:href="rooms/TH:A-1442/">TH:A-1442</room><weeks>1-7,9</weeks></timetableSlot>\
            <timetableSlot><day>1</day><startTime>07:30:00</startTime><endTime>09:00:00</endTime><parity>BOTH</parity></timetableSlot>
            """, type: "parallel")
        let slots = KOSService.slots(parallel, grid: .fit, language: "cs")
        #expect(slots.map(\.day) == [1, 2], "sorted by day")
        let monday = try #require(slots.first)
        #expect(monday.start == "07:30", "the slot's own times win over the grid")
        #expect(monday.isIn(.odd) && monday.isIn(.even))
        let tuesday = try #require(slots.last)
        #expect(tuesday.course == "BI-PA1")
        #expect(tuesday.kind == "tutorial")
        #expect(tuesday.parity == .odd)
        #expect(tuesday.isIn(.odd) && !tuesday.isIn(.even))
        #expect(tuesday.teachers == ["Ing. Tomáš Dvořák"], "the parallel's teachers when the slot names none")
        #expect(tuesday.weeks == "1-7,9")
        for slot in slots {
            #expect(try KOSTimetableSlot(json: slot.json) == slot)
            #expect(KOSTimetableSlot.resultSchema.problems(in: slot.json, strict: true).isEmpty)
        }
        #expect(monday.json["room"] == .null, "no room is null, not absent")
    }

    @Test func aCourseEventBecomesFieldsAndReadsBack() throws {
        let entry = try #require(
            try Self.entries(
                """
                <capacity>30</capacity><course xlink:href="courses/BI-PA1/">Programování 1</course><endDate>2026-12-03T16:00:00</endDate>\
                <name>Test 1</name><occupied>12</occupied><room xlink:href="rooms/T9:105/">T9:105</room><startDate>2026-12-03T14:30:00</startDate>
                """, type: "courseEvent", id: "777"
            ).first)
        let event = try #require(KOSService.event(entry, language: "cs"))
        #expect(event.id == "777")
        #expect(event.course == "BI-PA1", "from the course link")
        #expect(event.start == "2026-12-03T14:30", "to the minute")
        #expect(event.when == "2026-12-03 14:30–16:00")
        #expect(event.inRoom(.en) == " in T9:105")
        #expect(event.seats(.en) == "12/30 seats taken")
        #expect(try KOSCourseEvent(json: event.json) == event)
        let result: JSONValue = ["events": [event.json], "stale": false, "fetched_at": "2026-11-26T08:00:00Z"]
        #expect(Cached<EventsAnswer>.resultSchema.problems(in: result, strict: true).isEmpty)
        let unlimited = KOSCourseEvent(id: "1", course: nil, name: nil, start: nil, end: nil, room: nil, capacity: nil, occupied: nil)
        #expect(unlimited.when == "?")
        #expect(unlimited.seats(.en) == "0 registered")
        #expect(unlimited.json["course"] == .null, "every member, null when KOSapi gives nothing")
    }

    @Test func anEnrolmentsBaselineKeyIsTheOneEarlierVersionsStored() throws {
        let enrolled = KOSEnrolment(
            code: "BI-PA1", name: "Programování 1", credits: 6, completion: "credit_exam", completed: true, assessment: true, semester: "B251",
            external: false)
        #expect(enrolled.snapshotKey == "B251|BI-PA1")
        #expect(enrolled.title == "BI-PA1 Programování 1")
        let external = KOSEnrolment(
            code: nil, name: "Spanish 5", credits: 2, completion: nil, completed: false, assessment: false, semester: nil, external: true)
        #expect(external.snapshotKey == "|external:Spanish 5")
        for row in [enrolled, external] {
            #expect(try KOSEnrolment(json: row.json) == row)
            #expect(KOSEnrolment.resultSchema.problems(in: row.json, strict: true).isEmpty)
            #expect(row.json.objectValue?.count == 8, "every member, null when KOSapi gives nothing")
        }
    }
}
