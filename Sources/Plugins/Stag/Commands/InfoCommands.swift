import Foundation
import PluginKit

/// Subject, teacher and student details, the year's calendar, and the teacher's views.
extension StagService {
    static func field(_ value: JSONValue?) -> JSONValue { StagValue.string(value).map(JSONValue.string) ?? .null }

    /// A syllabus text; null where STAG gives its fixed placeholder for a subject moved to the
    /// newer QRAM system ("U tohoto předmětu se již používá nový QRAM."), which is no content.
    static func syllabus(_ value: JSONValue?) -> JSONValue {
        guard let text = StagValue.string(value), !text.contains("nový QRAM") else { return .null }
        return .string(text)
    }

    func subject(_ params: Params) async throws -> JSONValue {
        let department = try Self.code(params, StagParams.department)
        let code = try Self.code(params, StagParams.code)
        let year = params[StagParams.subjectYear]
        let session = try await session(params[StagParams.account])
        return try await cached(
            session, "subject", ["department": .string(department), "code": .string(code), "year": year.map(JSONValue.int) ?? .null]
        ) {
            let info = try await session.client.read(
                "predmety/getPredmetInfo", [("katedra", department), ("zkratka", code)] + (year.map { [("rok", String($0))] } ?? []))
            // An unknown subject is `[]`, not a 404.
            guard let o = info.objectValue, !o.isEmpty else {
                throw RPCError.notFound("subject \(department)/\(code)", data: ["subject": .string("\(department)/\(code)")])
            }
            func names(_ key: String) -> JSONValue { .array(StagValue.quotedNames(StagValue.string(o[key])).map(JSONValue.string)) }
            func hours(_ count: String, _ unit: String) -> JSONValue {
                guard let n = StagValue.int(o[count]), n > 0 else { return .null }
                return ["count": .int(n), "unit": Self.field(o[unit])]
            }
            return [
                "subject": .string("\(department)/\(code)"), "name": Self.field(o["nazev"]), "long_name": Self.field(o["nazevDlouhy"]),
                "year": StagValue.int(o["rok"]).map(JSONValue.int) ?? .null, "credits": StagValue.int(o["kreditu"]).map(JSONValue.int) ?? .null,
                "guarantors": names("garanti"), "lecturers": names("prednasejici"), "tutors": names("cvicici"), "seminar_tutors": names("seminarici"),
                "examiners": names("examinatori"), "exam_type": Self.field(o["typZkousky"]), "exam_form": Self.field(o["formaZkousky"]),
                "credit_before_exam": StagValue.flag(o["maZapocetPredZk"]).map(JSONValue.bool) ?? .null,
                "taught_winter": StagValue.flag(o["vyukaZS"]).map(JSONValue.bool) ?? .null,
                "taught_summer": StagValue.flag(o["vyukaLS"]).map(JSONValue.bool) ?? .null,
                "languages": Self.field(o["vyucovaciJazyky"]), "annotation": Self.field(o["anotace"]), "requirements": Self.field(o["pozadavky"]),
                "contents": Self.field(o["prehledLatky"]), "prerequisites": Self.field(o["predpoklady"]), "literature": Self.field(o["literatura"]),
                "required_subjects": Self.field(o["podminujiciPredmety"]), "excluded_subjects": Self.field(o["vylucujiciPredmety"]),
                "hours": [
                    "lectures": hours("jednotekPrednasek", "jednotkaPrednasky"), "exercises": hours("jednotekCviceni", "jednotkaCviceni"),
                    "seminars": hours("jednotekSeminare", "jednotkaSeminare"),
                ],
                "url": Self.field(o["predmetUrl"]), "aims": Self.syllabus(o["ziskaneZpusobilosti"]),
                "teaching_methods": Self.syllabus(o["metodyVyucovaci"]), "assessment_methods": Self.syllabus(o["metodyHodnotici"]),
                "workload": Self.field(o["casovaNarocnost"]),
            ]
        }
    }

    func teacher(_ params: Params) async throws -> JSONValue {
        let id = try params[StagParams.teacherID]
        let session = try await session(params[StagParams.account])
        return try await cached(session, "teacher", ["id": .int(id)]) {
            let info = try await session.client.read("ucitel/getUcitelInfo", [("ucitIdno", String(id))])
            guard let o = info.objectValue, !o.isEmpty else { throw RPCError.notFound("teacher \(id)", data: ["id": .int(id)]) }
            let office = [StagValue.string(o["zkrBudovy"]), StagValue.string(o["cisloMistnosti"])].compactMap { $0 }
            return [
                "id": .int(id), "name": StagValue.personName(info).map(JSONValue.string) ?? .null, "first_name": Self.field(o["jmeno"]),
                "last_name": Self.field(o["prijmeni"]), "title_before": Self.field(o["titulPred"]), "title_after": Self.field(o["titulZa"]),
                "department": Self.field(o["katedra"]), "email": Self.field(o["email"]), "phone": Self.field(o["telefon"]),
                "phone2": Self.field(o["telefon2"]),
                "url": Self.field(o["url"]), "office": office.isEmpty ? .null : .string(office.joined(separator: "-")),
            ]
        }
    }

    func student(_ params: Params) async throws -> JSONValue {
        if let id = params[StagParams.studentID], !Self.isStudentID(id) {
            throw RPCError.invalidParam("id", "'\(id)' is not a personal number such as A20B0001P")
        }
        let session = try await session(params[StagParams.account])
        let id = try params[StagParams.studentID]?.uppercased() ?? (try session.student().studentID ?? "")
        return try await cached(session, "student", ["id": .string(id)]) {
            let info = try await session.client.read("student/getStudentInfo", [("osCislo", id)])
            guard let o = info.objectValue, !o.isEmpty else { throw RPCError.notFound("student \(id)", data: ["id": .string(id)]) }
            let status: JSONValue =
                switch StagValue.string(o["stav"]) {
                case "S": "studying"
                case "N": "not_studying"
                case "P": "interrupted"
                case let other?: .string(other)
                case nil: .null
                }
            let form: JSONValue =
                switch StagValue.string(o["formaSp"]) {
                case "P": "full_time"
                case "K": "combined"
                case "D": "distance"
                case let other?: .string(other)
                case nil: .null
                }
            return [
                "id": .string(id), "name": StagValue.personName(info).map(JSONValue.string) ?? .null, "user_name": Self.field(o["userName"]),
                "status": status, "programme": Self.field(o["nazevSp"]), "programme_code": Self.field(o["kodSp"]),
                "faculty": Self.field(o["fakultaSp"]),
                "form": form, "year_of_study": StagValue.int(o["rocnik"]).map(JSONValue.int) ?? .null, "email": Self.field(o["email"]),
                "study_officer": StagValue.string(o["studReferentkaPrijmeniJmeno"]) == nil
                    ? .null
                    : [
                        "name": Self.field(o["studReferentkaPrijmeniJmeno"]), "email": Self.field(o["studReferentkaEmail"]),
                        "phone": Self.field(o["studReferentkaTelefon"]),
                    ],
            ]
        }
    }

    func calendar(_ params: Params) async throws -> JSONValue {
        let year = params[StagParams.calendarYear] ?? Int64(today.month >= 9 ? today.year : today.year - 1)
        let session = try await session(params[StagParams.account])
        return try await cached(session, "calendar", ["year": .int(year)]) {
            let answer = try await session.client.read("kalendar/getHarmonogramRoku", [("rok", String(year))])
            guard let rows = answer["harmonogramItem"]?.arrayValue else {
                throw StagError.unexpectedAnswer("kalendar/getHarmonogramRoku", "no harmonogramItem list")
            }
            let items: [JSONValue] = rows.map {
                [
                    "from": StagValue.date($0["datumOd"]).map(JSONValue.string) ?? .null,
                    "to": StagValue.date($0["datumDo"]).map(JSONValue.string) ?? .null,
                    "description": Self.field($0["popis"]),
                ]
            }
            return ["year": .int(year), "items": .array(items.sorted { ($0["from"]?.stringValue ?? "") < ($1["from"]?.stringValue ?? "") })]
        }
    }

    /// The students of a timetable action, in Czech alphabetical order (ICU's cs collation:
    /// Č after C, Ch after H).
    func students(_ params: Params) async throws -> JSONValue {
        let action = try params[StagParams.actionID]
        let session = try await session(params[StagParams.account])
        let teacher = try session.teacher()
        return try await cached(session, "students", ["action_id": .int(action)]) {
            let answer = try await session.client.read("student/getStudentiByRoakce", [("roakIdno", String(action)), ("stagUser", teacher.userName)])
            guard let rows = answer["studentPredmetu"]?.arrayValue else {
                throw StagError.unexpectedAnswer("student/getStudentiByRoakce", "no studentPredmetu list")
            }
            let sorted = Self.czechSorted(rows) { [StagValue.string($0["prijmeni"]), StagValue.string($0["jmeno"])] }
            return [
                "students": .array(
                    sorted.map {
                        [
                            "id": Self.field($0["osCislo"]), "name": StagValue.personName($0).map(JSONValue.string) ?? .null,
                            "first_name": Self.field($0["jmeno"]),
                            "last_name": Self.field($0["prijmeni"]), "faculty": Self.field($0["fakultaSp"]), "programme": Self.field($0["nazevSp"]),
                            "year_of_study": StagValue.int($0["rocnik"]).map(JSONValue.int) ?? .null, "email": Self.field($0["email"]),
                        ]
                    })
            ]
        }
    }

    func theses(_ params: Params) async throws -> JSONValue {
        let year = params[StagParams.thesesYear]
        let session = try await session(params[StagParams.account])
        let teacher = try session.teacher()
        return try await cached(session, "theses", ["year": year.map(JSONValue.int) ?? .null]) {
            let answer = try await session.client.read(
                "kvalifikacniprace/getKvalifikacniPrace",
                [("ucitIdno", String(teacher.teacherID ?? 0)), ("stagUser", teacher.userName)] + (year.map { [("rokZadani", String($0))] } ?? []))
            guard let rows = answer["kvalifikacniPrace"]?.arrayValue else {
                throw StagError.unexpectedAnswer("kvalifikacniprace/getKvalifikacniPrace", "no kvalifikacniPrace list")
            }
            return [
                "theses": .array(
                    rows.map {
                        [
                            "title": Self.field($0["temaHlavni"]),
                            "student": $0["student"]?.objectValue == nil
                                ? .null
                                : [
                                    "id": Self.field($0["student"]?["osCislo"]),
                                    "name": StagValue.personName($0["student"]).map(JSONValue.string) ?? .null,
                                ],
                            "assigned": StagValue.date($0["datumZadani"]).map(JSONValue.string) ?? .null,
                            "planned_submission": StagValue.date($0["planovaneDatumOdevzdani"]).map(JSONValue.string) ?? .null,
                            "type": Self.field($0["typPrace"]), "department": Self.field($0["katedra"]), "faculty": Self.field($0["fakulta"]),
                            "supervisor": Self.field($0["vedouciJmeno"]), "opponent": Self.field($0["oponentJmeno"]),
                        ]
                    })
            ]
        }
    }

    // MARK: Parameters

    static func code(_ params: Params, _ key: RequiredParam<String>) throws(RPCError) -> String {
        try code(try params[key], param: key.name)
    }

    static func isStudentID(_ id: String) -> Bool {
        !id.isEmpty && id.count <= 16 && id.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
    }
}
