import Foundation
import PluginKit

/// Finding what one does not know the id of: teachers by name or department, rooms with their
/// type and capacity, a room's timetable, subjects by code, name or department. The operations
/// and their quirks are noted in `Tests/peers/stag-reference-additions.md`.
extension StagService {
    // MARK: Teachers

    func teachersSearch(_ params: Params) async throws -> Cached<FoundTeachers> {
        let name = params[StagParams.teacherName]?.trimmingCharacters(in: .whitespaces)
        let department = try params[StagParams.searchDepartment].map { text throws(RPCError) in try Self.code(text, param: StagParams.department.name)
        }
        if let name, name.isEmpty, department == nil { throw StagParams.teacherName.invalid("must not be empty") }
        let session = try await session(params[StagParams.account])
        let key: [String: JSONValue] = ["name": name.map(JSONValue.string) ?? .null, "department": department.map(JSONValue.string) ?? .null]
        return try await cachedModel(session, "teachers.search", key) {
            var rows: [StagRow.Teacher]
            if let name, !name.isEmpty {
                // "Jan Novák": the last word is the surname, what STAG searches by; the rest narrows it.
                let words = name.split(separator: " ").map(String.init)
                let surname = words.last ?? name
                let first = words.dropLast().joined(separator: " ")
                let answer = try await session.client.read(
                    "ucitel/najdiUcitelePodleJmena", [("prijmeni", surname)] + (first.isEmpty ? [] : [("jmeno", first)]))
                rows = Self.teacherRows(answer)
                if let department { rows = rows.filter { $0.katedra?.uppercased() == department } }
            } else {
                let answer = try await session.client.read("ucitel/getUciteleKatedry", [("katedra", department ?? ""), ("jenAktualni", "true")])
                rows = Self.teacherRows(answer)
            }
            return FoundTeachers(teachers: Self.czechSorted(rows) { [$0.prijmeni, $0.jmeno] }.map(FoundTeacher.init))
        }
    }

    /// Students by name, for a teacher (STAG answers a student's account as it answers it: its
    /// refusal is passed on). "Jana Nováková": the last word is the surname, the rest the first name.
    func studentsSearch(_ params: Params) async throws -> Cached<FoundStudents> {
        let name = try params[StagParams.studentName].trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw StagParams.studentName.invalid("must not be empty") }
        // STAG's wildcards (% and _) would let a search list every student a page at a time.
        guard name.count <= 100, !name.contains("%"), !name.contains("_") else {
            throw StagParams.studentName.invalid("must be a name of at most 100 letters, without % or _")
        }
        let limit = Int(params[StagParams.studentLimit])
        let session = try await session(params[StagParams.account])
        // A teacher's role when the account has one; else its first, whose answer is STAG's to give.
        guard let role = session.roles.first(where: \.isTeacher) ?? session.roles.first else {
            throw StagError.noRole(session.account, "any").rpcError
        }
        let key: [String: JSONValue] = ["name": .string(name), "limit": .int(Int64(limit)), "role": .string(role.userName)]
        return try await cachedModel(session, "students.search", key) {
            let words = name.split(separator: " ").map(String.init)
            let surname = words.last ?? name
            let first = words.dropLast().joined(separator: " ")
            let answer = try await session.client.read(
                "student/najdiStudentyPodleJmena",
                [("prijmeni", surname)] + (first.isEmpty ? [] : [("jmeno", first)]) + [("stagUser", role.userName)])
            let object = answer.arrayValue?.first { $0.objectValue != nil } ?? answer
            let rows: [StagRow.Student] =
                switch object["student"] {
                case .array(let rows)?: JSONTreeDecoder.rows(rows, as: StagRow.Student.self)
                case let one?: JSONTreeDecoder.rows([one], as: StagRow.Student.self)
                default: []
                }
            let sorted = Self.czechSorted(rows) { [$0.prijmeni, $0.jmeno] }
            return FoundStudents(students: sorted.prefix(limit).map(ActionStudent.init), truncated: sorted.count > limit)
        }
    }

    /// `{"ucitel": [...]}`, or that object inside an array (an older STAG); `[null]`, `""` or an
    /// object without the list: no teacher.
    static func teacherRows(_ answer: JSONValue) -> [StagRow.Teacher] {
        let object = answer.arrayValue?.first { $0.objectValue != nil } ?? answer
        switch object["ucitel"] {
        case .array(let rows)?: return JSONTreeDecoder.rows(rows, as: StagRow.Teacher.self)
        case let one?: return JSONTreeDecoder.rows([one], as: StagRow.Teacher.self)
        default: return []
        }
    }

    // MARK: Rooms

    func roomsSearch(_ params: Params) async throws -> Cached<FoundRooms> {
        let building = try params[StagParams.building].map { text throws(RPCError) in try Self.code(text, param: StagParams.building.name) }
        let query = params[StagParams.roomQuery]?.trimmingCharacters(in: .whitespaces).lowercased()
        let limit = Int(params[StagParams.roomLimit] ?? 100)
        let session = try await session(params[StagParams.account])
        let answer = try await cachedModel(session, "rooms", ["building": building.map(JSONValue.string) ?? .null]) {
            async let buildings = session.client.read("mistnost/getBudovy", [])
            let rows = try await session.client.rows(
                "mistnost/getMistnostiInfo", (building.map { [("zkrBudovy", $0)] } ?? []) + [("jenPlatne", "true")], list: "mistnostInfo",
                as: StagRow.Room.self)
            // A building list that is missing only leaves the addresses out.
            var addresses: [String: String] = [:]
            for item in JSONTreeDecoder.rows(try await buildings["items"]?.arrayValue ?? [], as: StagRow.Building.self) {
                if let code = item.zkrBudovy { addresses[code] = item.address }
            }
            return RoomList(rooms: rows.compactMap { Room($0, addresses: addresses) })
        }
        return answer.map { list in
            // The room's number, its building-room name or its type: "326", "uc-326", "laboratoř".
            let rooms = query.map { query in query.isEmpty ? list.rooms : list.rooms.filter { $0.matches(query) } } ?? list.rooms
            return FoundRooms(rooms: Array(rooms.prefix(limit)), truncated: rooms.count > limit)
        }
    }

    func roomsTimetable(_ params: Params) async throws -> Cached<RoomTimetable> {
        let building = try Self.code(try params[StagParams.roomBuilding], param: StagParams.building.name)
        let number = try params[StagParams.roomNumber].trimmingCharacters(in: .whitespaces)
        guard !number.isEmpty, number.count <= 16, number.allSatisfy({ $0.isLetter || $0.isNumber || "-._".contains($0) }) else {
            throw StagParams.roomNumber.invalid("'\(number)' is not a room number (e.g. 326)")
        }
        let monday = today.adding(days: -today.weekdayFromMonday)
        let from = params[StagParams.from] ?? monday
        let to = params[StagParams.to] ?? from.adding(days: 6)
        let session = try await session(params[StagParams.account])
        let key: [String: JSONValue] = [
            "building": .string(building), "room": .string(number), "from": .string(from.description), "to": .string(to.description),
        ]
        return try await cachedModel(session, "rooms.timetable", key) {
            // STAG answers an unknown room with an empty timetable: the room is looked up first.
            let known = try await session.client.read("mistnost/getMistnostiInfo", [("zkrBudovy", building), ("cisloMistnosti", number)])
            guard known["mistnostInfo"]?.arrayValue?.isEmpty == false else {
                throw RPCError.notFound("room \(building)-\(number)", data: ["room": .string("\(building)-\(number)")])
            }
            let rows = try await session.client.rows(
                "rozvrhy/getRozvrhByMistnost",
                [("budova", building), ("mistnost", number), ("datumOd", StagValue.parameter(from)), ("datumDo", StagValue.parameter(to))],
                list: "rozvrhovaAkce", as: StagRow.Action.self)
            let events = rows.compactMap { TimetableEvent($0, role: "room") }.sorted { $0.sortKey < $1.sortKey }
            return RoomTimetable(building: building, room: number, events: events)
        }
    }

    // MARK: Subjects

    func subjectsSearch(_ params: Params, call: CallContext) async throws -> Cached<FoundSubjects> {
        let query = params[StagParams.subjectQuery]?.trimmingCharacters(in: .whitespaces)
        let department = try params[StagParams.searchDepartment].map { text throws(RPCError) in try Self.code(text, param: StagParams.department.name)
        }
        let year = params[StagParams.subjectYear]
        let limit = Int(params[StagParams.subjectLimit] ?? 20)
        // najdiPredmety matches codes and whole names exactly, and its department parameter is
        // `pracoviste` (it does not read `katedra`): a code or a department alone is asked for so.
        var filters: [(String, String)] = department.map { [("pracoviste", $0)] } ?? []
        if let query, !query.isEmpty {
            let parts = query.uppercased().split(separator: "/").map(String.init)
            if parts.count == 2, let code = try? Self.code(parts[1], param: StagParams.roomQuery.name),
                let dept = try? Self.code(parts[0], param: StagParams.roomQuery.name)
            {
                filters = [("pracoviste", dept), ("zkratka", code)]
            } else if !query.contains(" "), query.count <= 8, query.allSatisfy({ $0.isLetter || $0.isNumber }), department == nil,
                query.contains(where: \.isNumber) || query == query.uppercased()
            {
                filters = [("zkratka", query.uppercased())]
            } else {
                // Words: every faculty's list, read at most daily, matched here.
                let words = Self.folded(query).split(separator: " ").map(String.init)
                guard words.allSatisfy({ $0.count <= 64 }), words.count <= 8 else {
                    throw StagParams.subjectQuery.invalid("takes at most 8 words of at most 64 letters")
                }
                let session = try await session(params[StagParams.account])
                let academicYear = year ?? Int64(today.month >= 9 ? today.year : today.year - 1)
                return try await searchCatalogue(session, words: words, department: department, year: academicYear, limit: limit, call: call)
            }
        }
        let session = try await session(params[StagParams.account])
        let key: [String: JSONValue] = [
            "query": query.map(JSONValue.string) ?? .null, "department": department.map(JSONValue.string) ?? .null,
            "year": year.map(JSONValue.int) ?? .null, "limit": .int(Int64(limit)),
        ]
        let asked = filters
        return try await cachedModel(session, "subjects.search", key) {
            let rows = try await session.client.rows(
                "predmety/najdiPredmety", asked + (year.map { [("rok", String($0))] } ?? []), list: "predmetKatedry", as: StagRow.Subject.self)
            var subjects: [FoundSubject] = []
            // Credits, semester and completion are in the subject's own detail, read for the rows shown.
            for row in rows.prefix(limit) {
                guard let dept = row.katedra, let code = row.zkratka else { continue }
                let info = try await session.client.read(
                    "predmety/getPredmetInfo", [("katedra", dept), ("zkratka", code)] + (year.map { [("rok", String($0))] } ?? []))
                let detail = JSONTreeDecoder.row(info, as: StagRow.SubjectInfo.self)
                subjects.append(FoundSubject(row: row, detail: detail, department: dept, code: code))
            }
            return FoundSubjects(subjects: subjects, truncated: rows.count > limit)
        }
    }

    /// Lower case without accents: "Úvod" and "uvod" match.
    static func folded(_ text: String) -> String {
        text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "cs_CZ"))
    }

    /// Rows in Czech alphabetical order of the parts `key` gives (surname, then first name).
    static func czechSorted<Row>(_ rows: [Row], by key: (Row) -> [String?]) -> [Row] {
        let czech = Locale(identifier: "cs_CZ")
        func text(_ row: Row) -> String { key(row).compactMap { $0 }.joined(separator: " ") }
        return rows.sorted { text($0).compare(text($1), options: [.caseInsensitive], range: nil, locale: czech) == .orderedAscending }
    }

    static func code(_ text: String, param: String) throws(RPCError) -> String {
        let value = text.uppercased()
        guard !value.isEmpty, value.count <= 12, value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw RPCError.invalidParam(param, "'\(text)' is not a STAG code (letters and digits, e.g. KIV or UPA)")
        }
        return value
    }
}
