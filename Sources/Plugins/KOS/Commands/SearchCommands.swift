import Foundation
import PluginKit

/// What KOSeek's users asked for beside their own study: course search, a course's parallels
/// with their seats, a teacher's timetable, and a room.
extension KOSService {
    // MARK: Courses

    /// `kos.courses.search {query, sem?, limit?}`: by name or code, accents optional. KOSapi's RSQL
    /// matching counts diacritics, so the pattern is widened as `kos.people.search` does and the
    /// pages are filtered here with folded text.
    func coursesSearch(_ params: Params) async throws -> Cached<FoundCourses> {
        let text = try params[KOSParams.courseQuery]
        let words = Self.searchWords(text)
        guard words.joined().count >= 2 else {
            throw KOSParams.courseQuery.invalid("is too short ('\(text)'): give at least two letters of a course's name or code")
        }
        let sem = try params[KOSParams.courseSemester].map { text throws(RPCError) in try KOSQuery.semester(text) }
        let limit = Int(params[KOSParams.courseLimit] ?? 50)
        let key = ReadCache.key(
            "courses.search", ["q": .string(words.joined(separator: " ")), "sem": sem.map(JSONValue.string) ?? .null, "limit": .int(Int64(limit))])
        return try await context.cache.read(account: nil, key: key) {
            let client = try await api(.publicData)
            let query = words.map { word -> String in
                let pattern = KOSQuery.quoted(Self.widened(word))
                return "(name==\(pattern),code==\(pattern))"
            }.joined(separator: ";")
            let language = self.language
            let found = try await client.atomEntries(
                "courses", query: [("query", query), ("limit", String(min(limit, 1000)))] + (sem.map { [("sem", $0)] } ?? []) + localized,
                maxItems: limit
            ) { entry in
                guard let course = entry.row(KOSRow.Course.self, language: language) else { return false }
                let haystack = Self.fold([course.code, course.name].compactMap { $0 }.joined(separator: " "))
                return words.allSatisfy(haystack.contains)
            }
            return FoundCourses(courses: found.compactMap { FoundCourse($0, language: language) })
        }
    }

    /// `kos.course.parallels {code, sem?}`: each parallel with its type, number, teachers, slots,
    /// capacity and occupancy (the seats KOSeek showed before enrolling).
    func courseParallels(_ params: Params) async throws -> Cached<CourseParallels> {
        let code = try KOSQuery.courseCode(try params[KOSParams.code], param: KOSParams.code.name)
        let sem = try KOSQuery.semester(params[KOSParams.semester])
        return try await context.cache.read(account: nil, key: ReadCache.key("course.parallels", ["code": .string(code), "sem": .string(sem)])) {
            _ = try await entry(.publicData, "courses/\(code)", what: "course \(code)")
            let entries = try await api(.publicData).atomEntries("courses/\(code)/parallels", query: [("sem", sem)] + localized)
            let slots = Self.slots(entries, grid: grid, language: language)
            return CourseParallels(code: code, semester: sem, parallels: entries.compactMap { CourseParallel($0, course: code, slots: slots) })
        }
    }

    // MARK: Teachers and rooms

    /// `kos.teacher.timetable {username, sem?}` (`/teachers/{u}/timetable`): the teacher's slots,
    /// times from the hour grid unless a slot has its own.
    func teacherTimetable(_ params: Params) async throws -> Cached<TeacherTimetable> {
        let username = try params[KOSParams.teacherUsername].lowercased()
        guard !username.isEmpty, username.count <= 16, username.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw KOSParams.teacherUsername.invalid("'\(username)' is not a KOS username such as novakpet")
        }
        let sem = try KOSQuery.semester(params[KOSParams.semester])
        return try await context.cache.read(
            account: nil, key: ReadCache.key("teacher.timetable", ["username": .string(username), "sem": .string(sem)])
        ) {
            // An unknown teacher is a 404 of its own, not an empty timetable.
            _ = try await entry(.publicData, "teachers/\(username)", what: "teacher \(username)")
            let entries = try await api(.publicData).atomEntries("teachers/\(username)/timetable", query: [("sem", sem)] + localized)
            let grid = self.grid
            return TeacherTimetable(username: username, semester: sem, slots: entries.compactMap { TeacherSlot($0, grid: grid) })
        }
    }

    /// `kos.room {code}` (`/rooms/{code}`): its name, locality, type and capacities.
    func room(_ params: Params) async throws -> Cached<RoomDetails> {
        let code = try params[KOSParams.roomCode].uppercased()
        guard !code.isEmpty, code.count <= 24, code.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ":-._".contains($0)) }) else {
            throw KOSParams.code.invalid("'\(code)' is not a room code such as TH:A-1442")
        }
        return try await context.cache.read(account: nil, key: ReadCache.key("room", ["code": .string(code)])) {
            let escaped = code.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/"))) ?? code
            let entry = try await entry(.publicData, "rooms/\(escaped)", what: "room \(code)")
            guard let row = entry.row(KOSRow.Room.self, language: language) else { throw KOSError.badAnswer("room \(code) has no content") }
            return RoomDetails(row, code: code)
        }
    }
}
