import Foundation
import PluginKit

/// STAG's decoders as the parser fuzz target (`Fuzz/ParserFuzz`) feeds them: the login callback,
/// then every row of a JSON answer through each row type and the result made from it. Declared
/// here so that the target reaches them through one `package` entry, with the decoders
/// themselves left internal (and a release build of the whole package needs no `@testable`).
package enum StagFuzzing {
    package static func parse(_ body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        _ = try? StagCallback.parse(url: text)
        _ = StagCallback.decodeInfo(text)
        guard let json = try? JSONValue.parse(bytes: body) else { return }
        for row in json.arrayValue ?? json.objectValue.map({ Array($0.values) }) ?? [json] {
            _ = TimetableEvent(stag: row, role: "student")?.json
            _ = ExamTerm(stag: row, names: ["X": "Y"])?.json
            _ = GradeRow(stag: row, subjects: ["KIV/PPA1": (name: "Programování", credits: 6)])?.json
            _ = JSONTreeDecoder.row(row, as: StagRow.Menu.self).map { try? JSONStreamEncoder.encode($0.soups.map(CanteenMenu.Meal.init)) }
            _ = JSONTreeDecoder.row(row, as: StagRow.SubjectInfo.self).map { try? JSONStreamEncoder.encode(SubjectDetails($0, subject: "X/Y")) }
            _ = JSONTreeDecoder.row(row, as: StagRow.Teacher.self).map { try? JSONStreamEncoder.encode(TeacherDetails($0, id: 1)) }
            _ = JSONTreeDecoder.row(row, as: StagRow.Student.self).map { try? JSONStreamEncoder.encode(StudentDetails($0, id: "A")) }
            _ = JSONTreeDecoder.row(row, as: StagRow.Thesis.self).map { try? JSONStreamEncoder.encode(Thesis($0)) }
            _ = JSONTreeDecoder.row(row, as: StagRow.Room.self).map { try? JSONStreamEncoder.encode(Room($0, addresses: [:])) }
            _ = JSONTreeDecoder.row(row, as: StagRow.Building.self)?.address
            _ = StagIdentity(row)
            _ = JSONTreeDecoder.row(row, as: StagRow.CalendarDay.self)
            _ = JSONTreeDecoder.row(row, as: StagRow.Workplace.self)
            _ = JSONTreeDecoder.row(row, as: StagRow.Subject.self).map { row in
                row.katedra.map { CatalogueSubject(department: $0, code: row.zkratka ?? "", name: row.nazev ?? "", year: row.rok) }
            }
            for value in row.arrayValue ?? row.objectValue.map({ Array($0.values) }) ?? [] {
                _ = StagValue.date(value)
                _ = StagValue.dateTime(value)
                _ = StagValue.time(value)
                _ = StagValue.personName(value)
                _ = StagValue.quotedNames(StagValue.text(value))
            }
        }
    }
}
