import PluginKit

/// Flights and FSTD sessions.
extension LogbookService {
    func draftContext(_ db: Database) throws -> DraftContext {
        let profile = try Profile.load(db)
        return DraftContext(
            airports: try AirportLookup.load(db), aircraft: try Aircraft.all(db), profile: profile, criterion: profile.nightCriterion)
    }

    static func existingFlight(_ db: Database, _ e: Entry, excluding id: Int64? = nil) throws -> Int64? {
        try Int64.fetchOne(
            db,
            sql: """
                SELECT id FROM logbook_entries WHERE kind = 'flight' AND deleted_at IS NULL AND date = ? AND dep = ? AND arr = ?
                AND out_at = ? AND registration = ? AND id IS NOT ?
                """,
            arguments: [e.date.description, e.dep, e.arr, e.out?.value, e.registration, id])
    }

    static func entry(_ db: Database, _ id: Int64) throws -> Entry {
        guard let row = try Row.fetchOne(db, sql: "SELECT \(Entry.selection) FROM logbook_entries WHERE id = ?", arguments: [id]) else {
            throw RPCError.notFound("logbook entry \(id)")
        }
        return Entry(row: row)
    }

    func flightsAdd(_ params: Params) async throws -> EntryResult {
        var draft = FlightDraft()
        try FlightParams.apply(params, to: &draft)
        let finished = draft
        if params[LogbookParams.checkOnly] {
            return try await database.read { db in
                let entry = try finished.complete(try self.draftContext(db))
                if try Self.existingFlight(db, entry) != nil { throw LogbookError.duplicateFlight(entry) }
                return EntryResult(entry: entry)
            }
        }
        return try await database.write { db in
            var entry = try finished.complete(try self.draftContext(db))
            if try Self.existingFlight(db, entry) != nil { throw LogbookError.duplicateFlight(entry) }
            entry.id = try entry.insert(db)
            try DutyPeriods.rebuild(db, old: nil, new: entry)
            return EntryResult(entry: entry)
        }
    }

    func flightsGet(_ params: Params) async throws -> EntryDetail {
        let id = try params[LogbookParams.entryID]
        return try await database.read { db in
            let attachments = try Row.fetchAll(
                db, sql: "SELECT \(Attachment.columns) FROM logbook_attachments WHERE entry_id = ? ORDER BY id", arguments: [id]
            ).map { AttachmentResult(attachment: Attachment(row: $0)) }
            return EntryDetail(entry: try Self.entry(db, id), attachments: attachments)
        }
    }

    func flightsUpdate(_ params: Params) async throws -> EntryResult {
        typealias P = LogbookParams
        let id = try params[P.flightID]
        return try await database.write { db in
            let stored = try Self.entry(db, id)
            guard stored.kind == .flight else {
                throw LogbookParams.entryID.invalid("\(id) is an FSTD session; delete it and add it again with logbook.fstd.add")
            }
            var draft = FlightDraft(entry: stored)
            // Values the logbook derived from the old block times follow the new ones, unless given.
            let moved = [P.out, P.inTime, P.off, P.on, P.dep, P.arr].contains { params[$0] != nil }
            if moved, let out = stored.out, let inAt = stored.inAt {
                let oldBlock = inAt.value - out.value
                if params[P.time(.total)] == nil && stored[.total] == oldBlock { draft.times[.total] = nil }
                let classes: [TimeColumn] = [.spSE, .spME, .mp]
                if classes.allSatisfy({ params[P.time($0)] == nil }) && classes.contains(where: { stored[$0] == stored[.total] }) {
                    for c in classes { draft.times[c] = nil }
                }
                if TimeColumn.functions.allSatisfy({ params[P.time($0)] == nil })
                    && TimeColumn.functions.contains(where: { stored[$0] == stored[.total] })
                {
                    let function = TimeColumn.functions.first { stored[$0] == stored[.total] }!
                    for c in TimeColumn.functions { draft.times[c] = nil }
                    draft.function = function.name
                }
                if params[P.time(.night)] == nil { draft.times[.night] = nil }
            }
            if params[P.out] != nil && params[P.date] == nil { draft.date = nil }
            try FlightParams.apply(params, to: &draft)
            var entry = try draft.complete(try self.draftContext(db))
            if try Self.existingFlight(db, entry, excluding: id) != nil { throw LogbookError.duplicateFlight(entry) }
            try entry.update(db, id: id)
            entry.id = id
            try DutyPeriods.rebuild(db, old: stored, new: entry)
            return EntryResult(entry: entry)
        }
    }

    func flightsDelete(_ params: Params) async throws -> EntryDeleted { try await entryDelete(params, kind: nil) }
    func fstdDelete(_ params: Params) async throws -> EntryDeleted { try await entryDelete(params, kind: .fstd) }

    func entryDelete(_ params: Params, kind: EntryKind?) async throws -> EntryDeleted {
        let id = try params[LogbookParams.entryID]
        let now = ISO8601.string(context.clock.now)
        return try await database.write { db in
            let e = try Self.entry(db, id)
            if let kind, e.kind != kind { throw RPCError.notFound("FSTD session \(id) (entry \(id) is a flight)") }
            if e.deleted { throw RPCError.notFound("logbook entry \(id) (already deleted)") }
            try db.execute(sql: "UPDATE logbook_entries SET deleted_at = ? WHERE id = ?", arguments: [now, id])
            try DutyPeriods.rebuild(db, old: e, new: nil)
            return EntryDeleted(deleted: id, undo: "logbook.flights.restore id=\(id)")
        }
    }

    func flightsRestore(_ params: Params) async throws -> EntryResult {
        let id = try params[LogbookParams.entryID]
        return try await database.write { db in
            var e = try Self.entry(db, id)
            guard e.deleted else { throw LogbookParams.entryID.invalid("entry \(id) is not deleted") }
            if e.kind == .flight, try Self.existingFlight(db, e) != nil { throw LogbookError.duplicateFlight(e) }
            try db.execute(sql: "UPDATE logbook_entries SET deleted_at = NULL WHERE id = ?", arguments: [id])
            e.deleted = false
            try DutyPeriods.rebuild(db, old: nil, new: e)
            return EntryResult(entry: e)
        }
    }

    func flightsPurge(_ params: Params) async throws -> Purged {
        let id = params[LogbookParams.purgeID]
        return try await database.write { db in
            if let id {
                try db.execute(sql: "DELETE FROM logbook_entries WHERE id = ? AND deleted_at IS NOT NULL", arguments: [id])
                guard db.changesCount > 0 else { throw RPCError.notFound("deleted entry \(id)") }
            } else {
                try db.execute(sql: "DELETE FROM logbook_entries WHERE deleted_at IS NOT NULL")
            }
            return Purged(purged: db.changesCount)
        }
    }

    func flightsList(_ params: Params) async throws -> EntryPage {
        var conditions: [String] = [params[LogbookParams.deleted] == true ? "e.deleted_at IS NOT NULL" : "e.deleted_at IS NULL"]
        var arguments: [(any DatabaseValueConvertible)?] = []
        let kind = params[LogbookParams.kind]
        if kind != "all" {
            conditions.append("e.kind = ?")
            arguments.append(kind)
        }
        let search = try EntrySearch(params)
        conditions += search.conditions
        arguments += search.arguments.map { $0 as (any DatabaseValueConvertible)? }
        if let d = day(params, LogbookParams.firstDate) {
            conditions.append("e.date >= ?")
            arguments.append(d.description)
        }
        if let d = day(params, LogbookParams.lastDate) {
            conditions.append("e.date <= ?")
            arguments.append(d.description)
        }
        if let v = params[LogbookParams.minTotal] {
            conditions.append("e.total_min >= ?")
            arguments.append(try Minutes.parse(v, field: "min_total"))
        }
        if let v = params[LogbookParams.maxTotal] {
            conditions.append("e.total_min <= ?")
            arguments.append(try Minutes.parse(v, field: "max_total"))
        }
        let limit = Int(params[LogbookParams.limit])
        let offset = Int(params[LogbookParams.offset])
        let whereClause = conditions.joined(separator: " AND ")
        let filterArguments = StatementArguments(arguments)
        let pageArguments = StatementArguments(arguments + [limit, offset])
        return try await database.read { db in
            let from = "FROM logbook_entries e LEFT JOIN logbook_aircraft a ON a.registration = e.registration WHERE \(whereClause)"
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) \(from)", arguments: filterArguments) ?? 0
            let rows = try Row.fetchAll(
                db, sql: "SELECT \(Entry.selection(prefix: "e.")) \(from) ORDER BY e.date DESC, e.out_at DESC, e.id DESC LIMIT ? OFFSET ?",
                arguments: pageArguments)
            return EntryPage(entries: rows.map { Entry(row: $0) }, totalCount: count, limit: limit, offset: offset)
        }
    }

    func fstdAdd(_ params: Params) async throws -> EntryResult {
        guard let date = Day(try params[LogbookParams.sessionDate]) else { throw LogbookParams.date.invalid("is required (YYYY-MM-DD)") }
        let type = try params[LogbookParams.fstdType].trimmingCharacters(in: .whitespaces)
        guard !type.isEmpty else { throw LogbookParams.fstdType.invalid("must not be empty (e.g. 'A320 FFS')") }
        let total = try Minutes.parse(try params[LogbookParams.sessionTotal], field: LogbookParams.sessionTotal.name)
        guard total > 0 else { throw LogbookParams.sessionTotal.invalid("must be more than zero") }
        guard total <= 24 * 60 else { throw LogbookParams.sessionTotal.invalid("(\(Minutes.hhmm(total))) is longer than a day") }
        var e = Entry(kind: .fstd, date: date)
        e.fstdType = type
        e.fstdQualification = params[LogbookParams.qualification]
        e[.total] = total
        e.remarks = params[LogbookParams.sessionRemarks] ?? ""
        let entry = e
        return try await database.write { db in
            var stored = entry
            stored.id = try entry.insert(db)
            return EntryResult(entry: stored)
        }
    }

    func fstdList(_ params: Params) async throws -> EntryPage {
        var p = params.values
        p[LogbookParams.kind.name] = "fstd"
        return try await flightsList(Params(p))
    }
}

/// The records a search names, the same for `flights.list`, `export` and `report.mail`: chosen
/// ids, free text, an aircraft, time in a function, with or without night or IFR time. Each as an
/// SQL condition on `logbook_entries e` (joined with `logbook_aircraft a`), values bound.
struct EntrySearch: Sendable {
    static let maxIDs = 10_000

    var conditions: [String] = []
    var arguments: [DatabaseValue] = []
    /// Whether it narrows anything (a report then says "selected records").
    var narrows: Bool { !conditions.isEmpty }

    /// Every record.
    init() {}

    init(_ params: Params) throws(RPCError) {
        typealias P = LogbookParams
        if let ids = params[P.ids] {
            guard ids.count <= Self.maxIDs else { throw P.ids.invalid("names \(ids.count) records; at most \(Self.maxIDs)") }
            // One bound JSON array, however many: no SQL variable limit, no text in the statement.
            conditions.append("e.id IN (SELECT value FROM json_each(?))")
            arguments.append(JSONValue.array(ids).encodedString().databaseValue)
        }
        if let text = params[P.text]?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            let like =
                "%"
                + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_") + "%"
            let fields = ["e.dep", "e.arr", "e.registration", "e.pic_name", "e.remarks", "e.fstd_type", "a.model", "a.type_designator"]
            conditions.append("(" + fields.map { "\($0) LIKE ? ESCAPE '\\'" }.joined(separator: " OR ") + ")")
            arguments += Array(repeating: like.databaseValue, count: fields.count)
        }
        if let reg = params[P.aircraftFilter] {
            conditions.append("e.registration = ?")
            arguments.append(Aircraft.normalized(reg).databaseValue)
        }
        // A column's name in the statement: only a declared function's (the validator checked it; this keeps it so for any caller).
        if let f = params[P.withFunction] {
            guard TimeColumn.functionNames.contains(f) else { throw P.withFunction.invalid("'\(f)' is not a pilot function") }
            conditions.append("e.\(f)_min > 0")
        }
        if let n = params[P.night] { conditions.append(n ? "e.night_min > 0" : "e.night_min = 0") }
        if let i = params[P.ifr] { conditions.append(i ? "e.ifr_min > 0" : "e.ifr_min = 0") }
    }
}
