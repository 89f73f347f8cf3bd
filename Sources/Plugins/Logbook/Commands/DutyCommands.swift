import PluginKit

/// Duty periods: standby, ground and flight duties, each a record of its own.
extension LogbookService {
    /// Clock times are read on `date` (else the stored duty's day), the end past midnight when
    /// before the start; a time not given is the stored duty's.
    static func dutySpan(date: Day?, start: String?, end: String?, stored: Duty?) throws(RPCError) -> (UTCMinute, UTCMinute) {
        let (startName, endName) = (LogbookParams.dutyFrom.name, LogbookParams.dutyTo.name)
        let base = date ?? stored?.start.day
        guard let from = try start.map({ s throws(RPCError) in try FlightParams.time(s, field: startName, on: base, after: nil) }) ?? stored?.start
        else { throw RPCError.invalidParam(startName, "is required") }
        let after = { (s: String) throws(RPCError) in
            try FlightParams.time(s, field: endName, on: date ?? from.day, after: from, afterName: startName)
        }
        guard let to = try end.map(after) ?? stored?.end else { throw RPCError.invalidParam(endName, "is required") }
        guard to > from else { throw RPCError.invalidParam(endName, "(\(to)) must be after '\(startName)' (\(from))") }
        guard to.value - from.value <= Duty.longestMinutes else {
            throw RPCError.invalidParam(endName, "makes a duty of \(Minutes.hhmm(to.value - from.value)); at most 36:00 is one duty period")
        }
        return (from, to)
    }

    func dutyAdd(_ params: Params) async throws -> DutyResult {
        typealias P = LogbookParams
        let (start, end) = try Self.dutySpan(date: day(params, P.dutyDate), start: try params[P.dutyFrom], end: try params[P.dutyTo], stored: nil)
        let duty = Duty(
            kind: DutyKind(rawValue: params[P.dutyKind]) ?? .flight, start: start, end: end, remarks: params[P.dutyRemarks] ?? "")
        return try await database.write { db in
            if let other = try duty.overlapping(db) { throw LogbookError.dutyOverlaps(other.id, start: other.start, end: other.end) }
            var stored = duty
            stored.id = try duty.insert(db)
            return DutyResult(duty: stored, flights: try stored.flights(db))
        }
    }

    func dutyGet(_ params: Params) async throws -> DutyResult {
        let id = try params[LogbookParams.dutyID]
        return try await database.read { db in
            guard let duty = try Duty.find(db, id) else { throw RPCError.notFound("duty \(id)") }
            return DutyResult(duty: duty, flights: try duty.flights(db))
        }
    }

    func dutyList(_ params: Params) async throws -> DutyList {
        typealias P = LogbookParams
        var conditions: [String] = []
        var arguments: [DatabaseValue] = []
        if let first = day(params, P.firstDate) {
            conditions.append("start_at >= ?")
            arguments.append(UTCMinute(day: first, minuteOfDay: 0).value.databaseValue)
        }
        if let last = day(params, P.lastDate) {
            conditions.append("start_at < ?")
            arguments.append(UTCMinute(day: last.adding(days: 1), minuteOfDay: 0).value.databaseValue)
        }
        if let kind = params[P.dutyKindFilter] {
            conditions.append("kind = ?")
            arguments.append(kind.databaseValue)
        }
        let bound = arguments
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let (limit, offset) = (Int(params[P.limit]), Int(params[P.offset]))
        return try await database.read { db in
            let total = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM logbook_duties \(filter)", arguments: StatementArguments(bound)) ?? 0
            let duties = try Row.fetchAll(
                db, sql: "SELECT * FROM logbook_duties \(filter) ORDER BY start_at DESC LIMIT ? OFFSET ?",
                arguments: StatementArguments(bound + [limit.databaseValue, offset.databaseValue])
            ).map(Duty.init)
            return DutyList(duties: try duties.map { DutyResult(duty: $0, flights: try $0.flights(db)) }, totalCount: total)
        }
    }

    func dutyUpdate(_ params: Params) async throws -> DutyResult {
        typealias P = LogbookParams
        let id = try params[P.dutyID]
        let date = day(params, P.dutyDate)
        let (start, end) = (params[P.newDutyFrom], params[P.newDutyTo])
        if date != nil, start == nil, end == nil { throw P.dutyDate.invalid("only says which day 'start' and 'end' are on; give them too") }
        return try await database.write { db in
            guard var duty = try Duty.find(db, id) else { throw RPCError.notFound("duty \(id)") }
            let before = (duty.start.value, duty.end.value)
            (duty.start, duty.end) = try Self.dutySpan(date: date, start: start, end: end, stored: duty)
            if let kind = params[P.newDutyKind].flatMap(DutyKind.init(rawValue:)) { duty.kind = kind }
            if let remarks = params[P.dutyRemarks] { duty.remarks = remarks }
            if let other = try duty.overlapping(db) { throw LogbookError.dutyOverlaps(other.id, start: other.start, end: other.end) }
            try duty.update(db)
            duty.origin = .person
            // Changed, it is the person's; the flights' duty times it no longer covers make their own again.
            try DutyPeriods.rebuild(db, from: before.0, to: before.1)
            return DutyResult(duty: duty, flights: try duty.flights(db))
        }
    }

    func dutyDelete(_ params: Params) async throws -> DutyDeleted {
        let id = try params[LogbookParams.dutyID]
        return try await database.write { db in
            guard let duty = try Duty.find(db, id) else { throw RPCError.notFound("duty \(id)") }
            if duty.origin == .flights {
                let flights = try duty.flights(db).map { String($0.id) }.joined(separator: ", ")
                throw LogbookParams.dutyID.invalid(
                    "is made from the duty times of flight\(flights.contains(",") ? "s" : "") \(flights.isEmpty ? "logged then" : flights); "
                        + "clear them (logbook.flights.update duty_start=\"\" duty_end=\"\"), or make it yours with logbook.duty.update")
            }
            try db.execute(sql: "DELETE FROM logbook_duties WHERE id = ?", arguments: [id])
            // The flights' duty times it covered make their own records again.
            try DutyPeriods.rebuild(db, from: duty.start.value, to: duty.end.value)
            return DutyDeleted(deleted: id)
        }
    }
}
