import Foundation
import GRDB
import PluginKit
import StudyKit

/// Watching a full exam term: checked every `watch_every_min`; each time it goes from full to
/// free, `stag.exam.seat_freed` is posted, and with `auto_register` the plugin registers at once
/// and says how that went.
extension StagService {
    func watch(_ params: Params) async throws -> WatchSaved {
        let term = try params[StagParams.termID]
        let auto = params[StagParams.autoRegister] ?? false
        let session = try await session(params[StagParams.account])
        let student = try session.student()
        guard let found = try await examTerms(session, student).first(where: { $0.termID == term }) else {
            throw StagError.termNotFound(term)
        }
        let state = found.state
        try await watchTable.add(
            .init(
                account: session.account, item: String(term), autoRegister: auto, lastState: state.rawValue, label: found.subject,
                since: ISO8601.string(context.clock.now)))
        return WatchSaved(watch: StagWatch(account: session.account, termID: term, autoRegister: auto, state: state, term: found))
    }

    /// The kit's watch table, this plugin's rows: a term's id as the item.
    var watchTable: ExamWatches { ExamWatches(context: context) }

    func watches(_ params: Params) async throws -> WatchList {
        let watches = try await watchTable.all().sorted { ($0.account, Int64($0.item) ?? 0) < ($1.account, Int64($1.item) ?? 0) }
        return WatchList(watches: watches.map(WatchRow.init))
    }

    func unwatch(_ params: Params) async throws -> Unwatched {
        let term = try params[StagParams.termID]
        let account = try await accounts.resolve(params[StagParams.account])
        guard try await watchTable.remove(account: account.name, item: String(term)) else { throw StagError.notWatched(term) }
        return Unwatched(termID: term)
    }

    func runWatches() async throws {
        let byAccount = Dictionary(grouping: try await watchTable.all()) { $0.account }
        try await EachAccount("stag.watch", logger: context.logger).run(byAccount.keys.sorted()) { name in
            let session = try await session(name)
            let student = try session.student()
            let terms = Dictionary(try await examTerms(session, student).map { ($0.termID, $0) }) { first, _ in first }
            for watch in byAccount[name] ?? [] {
                guard let id = Int64(watch.item), let term = terms[id] else { continue }
                try await checkWatch(session, student, term: term, last: watch.lastState, auto: watch.autoRegister, freed: watch.freed)
            }
        }
    }

    func checkWatch(_ session: StagSession, _ student: StagRole, term: ExamTerm, last: String?, auto: Bool, freed: Int64) async throws {
        let id = term.termID
        let wasFull = last.flatMap(ExamState.init(rawValue:)) == .full
        var register: (@Sendable () async throws -> Void)? = nil
        if auto {
            register = { [self] in _ = try await self.registration(session, student, term: id, registering: true) }
        }
        let seat = try await alerts.checkSeat(account: session.account, term, wasFull: wasFull, freed: freed, register: register)
        let state = seat.registered ? ExamState.registered : term.state
        try await watchTable.record(account: session.account, item: String(id), state: state.rawValue, freed: seat.freed)
    }
}
