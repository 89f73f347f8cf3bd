import Foundation
import GRDB
import PluginKit
import StudyKit

/// Watching a full exam: checked every `watch_every_min`; each time it goes from full to free,
/// `kos.exam.seat_freed` is posted with the KOS link (KOSapi is read-only, so registering stays
/// in the browser). An exam that has begun is no longer watched.
extension KOSService {
    func watch(_ params: Params) async throws -> KOSWatchSaved {
        let id = try Self.examID(params)
        let exam = try await watchedExam(id)
        let full = exam.full
        // A watch is public data, no account's.
        try await watchTable.add(
            .init(
                account: "", item: id, lastState: full ? "full" : "free", label: exam.course, startsAt: exam.start,
                since: ISO8601.string(context.clock.now)))
        return KOSWatchSaved(watch: .init(examID: id, full: full, exam: exam))
    }

    /// The kit's watch table, this plugin's rows: an exam's id as the item, `full` or `free` as its state.
    var watchTable: ExamWatches { ExamWatches(context: context) }

    func watches() async throws -> KOSWatchList {
        let watches = try await watchTable.all().sorted { ($0.startsAt ?? "", $0.item) < ($1.startsAt ?? "", $1.item) }
        return KOSWatchList(watches: watches.map(KOSWatchRow.init))
    }

    func unwatch(_ params: Params) async throws -> KOSUnwatched {
        let id = try Self.examID(params)
        guard try await watchTable.remove(account: "", item: id) else { throw KOSError.notWatched(id) }
        return KOSUnwatched(examID: id)
    }

    static func examID(_ params: Params) throws(RPCError) -> String {
        let text = try params[KOSParams.examID]
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw KOSParams.examID.invalid("'\(text)' is not an exam id from kos.exams")
        }
        return text
    }

    /// One exam (public data), `registered` unknown here.
    func watchedExam(_ id: String) async throws -> KOSExam {
        let entry = try await entry(.publicData, "exams/\(id)", what: "exam \(id)")
        guard let exam = KOSExam(entry, registered: []) else { throw KOSError.badAnswer("exam \(id) has no content") }
        return exam
    }

    func runWatches() async throws {
        let watches = Dictionary(try await watchTable.all().map { ($0.item, $0) }) { first, _ in first }
        try await EachAccount("kos.watch", label: "exam", logger: context.logger).run(watches.keys.sorted()) { id in
            guard let watch = watches[id] else { return }
            let exam = try await watchedExam(id)
            if let start = exam.startInstant, start <= context.clock.now {
                _ = try await watchTable.remove(account: "", item: id)
                return
            }
            let full = exam.full
            // A watch is public data, no account's: the seat-freed notice names none.
            let freed = try await alerts.checkSeat(account: "", exam, wasFull: watch.lastState == "full", freed: watch.freed).freed
            try await watchTable.record(account: "", item: id, state: full ? "full" : "free", freed: freed)
        }
    }
}
