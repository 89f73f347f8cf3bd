import Foundation
import PluginKit

/// KOSapi's decoders as the parser fuzz target (`Fuzz/ParserFuzz`) feeds them: an Atom feed's
/// entries through each row and result, or, when the input is no feed, the week lists and the
/// office hours' table. One `package` entry, so the decoders stay internal.
package enum KOSFuzzing {
    package static func parse(_ body: [UInt8]) {
        guard let document = try? AtomDocument(parsing: Data(body)) else {
            _ = KOSService.weeks(String(decoding: body, as: UTF8.self))
            return
        }
        for entry in document.entries {
            _ = KOSExam(entry, registered: ["1"])?.json
            _ = KOSService.internalCode(entry)
            _ = try? JSONStreamEncoder.encode(FoundCourse(entry, language: "cs"))
            _ = try? JSONStreamEncoder.encode(CourseParallel(entry, course: "X", slots: []))
            _ = try? JSONStreamEncoder.encode(TeacherSlot(entry, grid: .fit))
        }
        _ = KOSService.slots(document.entries, grid: .fit, language: "cs").map(\.json)
        if let table = try? JSONValue.parse(bytes: body) { _ = KOSService.officeHours(table) }
    }
}
