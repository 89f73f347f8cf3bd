import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// KOS's Atom reader against the recorded KOSapi feeds of the reference (§5).
@Suite(.stopsTestHosts)
struct AtomTests {
    // §5.3, 2014, trimmed to its first entry: a slash-less xml:base, the default namespace for the payload.
    static let parallels = #"""
        <?xml version="1.0" encoding="UTF-8"?>\#
        <atom:feed xmlns="http://kosapi.feld.cvut.cz/schema/3" xmlns:atom="http://www.w3.org/2005/Atom" xmlns:osearch="http://a9.com/-/spec/opensear\#
        ch/1.1/" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xml:base="https://kosapi.feld.cvut\#
        .cz/api/3" xml:lang="cs"><atom:id>https://kosapi.feld.cvut.cz/api/students/novakjan/parallels</atom:id><atom:updated>\#
        2014-01-21T22:40:43.421</atom:updated>
        <atom:entry><atom:id>urn:cvut:kos:parallel:349742000</atom:id><atom:updated>2013-09-19T10:44:40.0</atom:updated><atom:author><atom:name>\#
        novakova</atom:name></atom:author><atom:link rel="self" href="parallels/349742000/"/><atom:content atom:type="xml" xsi:type="parallel">\#
        <capacity>140</capacity><code>1</code><course xlink:href="courses/A4B33OPT/">Optimalizace</course><occupied>110</occupied><parallelType>\#
        LECTURE</parallelType><teacher xlink:href="teachers/dvorakto/">Ing. Tomáš Dvořák Ph.D.</teacher>\#
        <teacher xlink:href="teachers/svobodav/">Ing. Vojtěch Svoboda Ph.D.</teacher><timetableSlot><day>5</day><duration>2</duration>\#
        <firstHour>3</firstHour><parity>BOTH</parity>\#
        <room xlink:href="rooms/KN:E-107/">KN:E-107</room></timetableSlot><timetableSlot><day>2</day><duration>2</duration><firstHour>7</firstHour>\#
        <parity>BOTH</parity></timetableSlot></atom:content></atom:entry>
        <osearch:startIndex>0</osearch:startIndex><osearch:totalResults>9</osearch:totalResults></atom:feed>
        """#

    // §5.4, 2012: a next link, a course with names in two languages; prefixes other than the usual ones.
    static let courses = #"""
        <?xml version="1.0" encoding="UTF-8"?>\#
        <a:feed xmlns="http://kosapi.feld.cvut.cz/schema/3" xmlns:a="http://www.w3.org/2005/Atom" xmlns:os="http://a9.com/-/spec/opensearch/1.1/" xm\#
        lns:xl="http://www.w3.org/1999/xlink" xmlns:s="http://www.w3.org/2001/XMLSchema-instance" xml:base="https://kosapi.fit.cvut.cz/api/3b/" xml:\#
        lang="en"><a:id>https://kosapi.fit.cvut.cz/api/3b/courses</a:id><a:updated>2012-12-02T14:32:19.343</a:updated>\#
        <a:link rel="next" href="courses?offset=10&amp;limit=10"/>
        <a:entry><a:title>Foreign Language - Spanish 5</a:title><a:id>urn:cvut:kos:course:23368305</a:id><a:updated>\#
        2004-11-28T14:13:42.0</a:updated><a:link rel="self" href="courses/15JS5/"/><a:content a:type="xml" s:type="course"><code>15JS5</code>\#
        <completion>CREDIT</completion><credits>2</credits><department xl:href="divisions/16115/">\#
        Department of Languages and Humanities</department><name xml:lang="cs">Jazyk - španělština 5</name><name xml:lang="en">\#
        Foreign Language - Spanish 5</name><range>0+2</range></a:content></a:entry>
        <a:entry><a:id>urn:cvut:kos:course:1</a:id><a:content a:type="xml" s:type="course"><code>X1</code><name xml:lang="cs">Jen česky</name>\#
        <name xml:lang="en"></name></a:content></a:entry>
        <os:itemsPerPage>10</os:itemsPerPage><os:startIndex>0</os:startIndex></a:feed>
        """#

    @Test func aRecordedFeedIsReadWithItsNamespacesAndRelativeLinks() throws {
        let feed = try #require(AtomDocument(Data(Self.parallels.utf8)))
        #expect(feed.base == "https://kosapi.feld.cvut.cz/api/3")
        #expect(feed.language == "cs")
        #expect(feed.totalResults == 9)
        #expect(feed.next == nil)
        let entry = try #require(feed.entries.first)
        #expect(entry.id == "349742000")
        #expect(entry.type == "parallel", "xsi:type, not atom:type")
        #expect(entry.selfLink == "https://kosapi.feld.cvut.cz/api/3/parallels/349742000/", "the version segment is kept")
        let content = try #require(entry.content)
        let href = try #require(content.first("course")?.attribute("href", XMLNode.xlink))
        #expect(AtomDocument.resolve(href, base: feed.base) == "https://kosapi.feld.cvut.cz/api/3/courses/A4B33OPT/")
        let parallel = try #require(entry.row(KOSRow.Parallel.self, language: "cs"))
        #expect(parallel.course?.code == "A4B33OPT" && parallel.course?.text == "Optimalizace")
        #expect(parallel.allTeachers == ["Ing. Tomáš Dvořák Ph.D.", "Ing. Vojtěch Svoboda Ph.D."])
        #expect(parallel.timetableSlot.map(\.firstHour) == [3, 7])
        #expect(parallel.timetableSlot.first?.room == "KN:E-107")
    }

    @Test func anyPrefixWorksAndTheNextPageAndLanguagesResolve() throws {
        let feed = try #require(AtomDocument(Data(Self.courses.utf8)))
        #expect(feed.next == "https://kosapi.fit.cvut.cz/api/3b/courses?offset=10&limit=10")
        #expect(feed.entries.map(\.id) == ["23368305", "1"])
        #expect(feed.entries.map(\.type) == ["course", "course"])
        let course = try #require(feed.entries.first)
        #expect(course.row(KOSRow.Course.self, language: "cs")?.name == "Jazyk - španělština 5")
        #expect(course.row(KOSRow.Course.self, language: "en")?.name == "Foreign Language - Spanish 5")
        #expect(feed.entries.last?.row(KOSRow.Course.self, language: "en")?.name == "Jen česky", "a missing English title falls back to Czech")
        #expect(feed.entries.last?.title == nil)
    }

    @Test func linksJoinTheBaseAsADirectory() {
        #expect(AtomDocument.resolve("courses/X/", base: "https://kosapi.fit.cvut.cz/api/3") == "https://kosapi.fit.cvut.cz/api/3/courses/X/")
        #expect(AtomDocument.resolve("courses/X/", base: "https://kosapi.fit.cvut.cz/api/3/") == "https://kosapi.fit.cvut.cz/api/3/courses/X/")
        #expect(AtomDocument.resolve("/api/4/x", base: "https://k.example/api/3") == "https://k.example/api/4/x")
        #expect(AtomDocument.resolve("https://other.example/x", base: "https://k.example/api/3") == "https://other.example/x")
        #expect(AtomDocument.resolve("x", base: nil) == "x")
    }

    @Test func notAtomIsNil() {
        #expect(AtomDocument(Data("{\"json\":true}".utf8)) == nil)
        #expect(AtomDocument(Data("<feed><entry/></feed>".utf8)) == nil, "not in the Atom namespace")
        #expect(AtomDocument(Data("<a:feed xmlns:a=\"http://www.w3.org/2005/Atom\"><a:entry>".utf8)) == nil, "not well-formed")
        let empty = AtomDocument(Data("<feed xmlns=\"http://www.w3.org/2005/Atom\"/>".utf8))
        #expect(empty?.entries.isEmpty == true, "an empty page")
    }
}
