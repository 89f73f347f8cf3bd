import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// KOSapi's Atom content is decoded into rows by its element names, from the parsed tree: each
/// element is read as its field says (a number, a flag, a reference's code, a text in the
/// configured language), and one that is missing or odd reads as nothing without losing its entry.
@Suite struct KOSRowsTests {
    static func entry(_ content: String) throws -> AtomDocument.Entry {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?><atom:entry xmlns="http://kosapi.feld.cvut.cz/schema/3" xmlns:atom="http://www.w3.org/2005/Atom" \
            xmlns:xlink="http://www.w3.org/1999/xlink" xml:base="https://kosapi.example/api/3/"><atom:id>urn:cvut:kos:x:1</atom:id>\
            <atom:content atom:type="xml">\(content)</atom:content></atom:entry>
            """
        return try #require(AtomDocument(Data(xml.utf8))?.entries.first)
    }

    @Test func aParallelReadsItsElements() throws {
        let entry = try Self.entry(
            """
            <code>101</code><course xlink:href="courses/BIE-PA1/">Programování</course><capacity>24</capacity><occupied>x</occupied>\
            <teacher>Jan Novák</teacher><teacher> </teacher><teachers><teacher>Eva Malá</teacher></teachers>\
            <timetableSlot><day>2</day><firstHour>3</firstHour><duration>2</duration><parity>ODD</parity></timetableSlot>\
            <timetableSlot><day>4</day><startTime>14:30:00</startTime><endTime>16:00:00</endTime></timetableSlot>
            """)
        let row = try #require(entry.row(KOSRow.Parallel.self, language: "cs"))
        #expect(row.code == "101")
        #expect(row.course?.code == "BIE-PA1" && row.course?.text == "Programování", "a reference: its href's code and its text")
        #expect(row.capacity == 24 && row.occupied == nil, "a number, and text that is not one")
        #expect(row.allTeachers == ["Jan Novák", "Eva Malá"], "blank teachers left out, <teachers> included")
        #expect(row.parallelType == nil, "an element KOSapi left out")
        #expect(row.timetableSlot.map(\.day) == [2, 4])
        #expect(row.timetableSlot.map(\.parityValue) == [.odd, .both])
        let grid = HourGrid.fit
        #expect(row.timetableSlot[0].times(grid).start == grid.start(ofHour: 3) && row.timetableSlot[0].times(grid).end == grid.end(ofHour: 4))
        #expect(row.timetableSlot[1].times(grid) == ("14:30", "16:00"), "explicit times win over the grid")
    }

    @Test func multilingualTextFallsBackAndBlankCodesAreNone() throws {
        let entry = try Self.entry(#"<code> </code><name xml:lang="cs">Česky</name><name xml:lang="en"></name><credits>6</credits>"#)
        let row = try #require(entry.row(KOSRow.Course.self, language: "en"))
        #expect(row.name == "Česky", "an empty English name falls back to Czech")
        #expect(row.code == nil, "a blank code is none")
        #expect(row.credits == 6)
    }

    @Test func flagsPresenceAndNestedLinks() throws {
        let person = try #require(
            try Self.entry("<username>novakj</username><roles><teacher/></roles><division xlink:href=\"divisions/18102/\">KIT</division>")
                .row(KOSRow.Person.self, language: "cs"))
        #expect(person.roles?.names == ["teacher"] && person.division?.code == "18102")
        let enrolment = try #require(
            try Self.entry("<completed>true</completed><assessment>no</assessment>").row(KOSRow.Enrolment.self, language: "cs"))
        #expect(enrolment.completed && !enrolment.assessment && enrolment.course == nil)
        let group = try #require(
            try Self.entry(#"<code>G1</code><courses><course xlink:href="courses/A/">A</course><course>no link</course></courses>"#)
                .row(KOSRow.CourseGroup.self, language: "cs"))
        #expect(group.courses?.course.map(\.code) == ["A", nil])
    }

    /// Each answer made of rows reads back from its cached copy (a stale read), full and sparse.
    @Test func everyAnswerMadeOfRowsReadsBackFromItsCachedCopy() throws {
        let course = try Self.entry(
            #"<code>BI-PA1</code><name xml:lang="cs">Programování</name><credits>6</credits><completion>EXAM</completion>"#
                + #"<description>Úvod</description>"#
        )
        let bare = try Self.entry("<code>X1</code>")
        for (entry, label) in [(course, "full"), (bare, "sparse")] {
            try expectReadsBack(FoundCourses(courses: [try #require(FoundCourse(entry, language: "cs"))]), "courses \(label)")
            try expectReadsBack(CourseDetail(try #require(entry.row(KOSRow.Course.self, language: "cs")), code: "X1"), "course \(label)")
        }
        let parallel = try Self.entry(
            "<code>101</code><capacity>24</capacity><occupied>20</occupied><teacher>Jan Novák</teacher><timetableSlot><day>2</day></timetableSlot>")
        let slots = KOSService.slots([parallel], grid: .fit, language: "cs")
        try expectReadsBack(
            CourseParallels(code: "X1", semester: "B251", parallels: [try #require(CourseParallel(parallel, course: "X1", slots: slots))]),
            "parallels")
        try expectReadsBack(
            TeacherTimetable(username: "novakj", semester: "B251", slots: [try #require(TeacherSlot(try Self.entry("<day>1</day>"), grid: .fit))]),
            "teacher timetable")
        let room = try #require(try Self.entry(#"<code>T9:105</code><capacity for="lecture">80</capacity>"#).row(KOSRow.Room.self, language: "cs"))
        try expectReadsBack(RoomDetails(room, code: "T9:105"), "room")
        let person = try #require(try Self.entry("<username>novakj</username><firstName>Jan</firstName>").row(KOSRow.Person.self, language: "cs"))
        try expectReadsBack(People(people: [try #require(Person(person, teacher: nil, roles: []))]), "people")
        let student = try #require(try Self.entry("<username>novakj</username><grade>2</grade>").row(KOSRow.Student.self, language: "cs"))
        try expectReadsBack(StudentProfile(student, username: "novakj"), "profile")
        let group = StudyPlanCheck.Group(
            code: "G1", name: nil, role: "compulsory", creditsRequired: nil, creditsObtained: 6, creditsShort: 0, coursesRequired: 2,
            coursesCompleted: 1, missing: ["X1"])
        try expectReadsBack(StudyPlanCheck(studyPlan: .init(code: "P1", name: nil), groups: [group], complete: false), "study plan")
        try expectReadsBack(
            AvailableCourses(
                semester: "B252", courses: [.init(code: "X1", name: nil, credits: nil, group: "G1", role: "optional")], truncated: false),
            "available courses")
    }

    struct Plain: Decodable {
        var code: String
    }

    /// A member that is not an Atom field is a failed row, not a crash.
    @Test func aPlainMemberFailsItsRow() throws {
        #expect(try Self.entry("<code>X</code>").row(Plain.self, language: "cs") == nil)
    }
}
