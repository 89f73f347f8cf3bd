import PluginKit

/// Totals, limits, recency and night.
extension LogbookService {
    func totals(_ params: Params) async throws -> TotalsResult {
        let from = day(params, LogbookParams.fromDate)
        let to = day(params, LogbookParams.toDate)
        let pageSize = params[LogbookParams.pageSize].map(Int.init)
        let page = params[LogbookParams.page].map(Int.init)
        if page != nil && pageSize == nil { throw LogbookParams.page.invalid("needs page_size too") }
        return try await database.read { db in
            var result = try TotalsReport.build(db, from: from, to: to, groupBy: params[LogbookParams.groupBy])
            if let pageSize {
                let starting = from == nil ? try ColumnTotals.loadStarting(db) : ColumnTotals()
                result.page = TotalsPage(page: try TotalsReport.page(db, from: from, to: to, pageSize: pageSize, number: page, starting: starting))
            }
            return result
        }
    }

    /// Entries in logbook order (date, block off, id), deleted ones left out.
    static func entries(_ db: Database, from: Day?, to: Day?, search: EntrySearch? = nil) throws -> [Entry] {
        let narrowed = search.map { $0.conditions.map { " AND " + $0 }.joined() } ?? ""
        return try Row.fetchAll(
            db,
            sql: """
                SELECT \(Entry.selection(prefix: "e.")) FROM logbook_entries e LEFT JOIN logbook_aircraft a ON a.registration = e.registration
                WHERE e.deleted_at IS NULL AND e.date >= ? AND e.date <= ?\(narrowed)
                ORDER BY e.date, COALESCE(e.out_at, 0), e.id
                """, arguments: StatementArguments([from?.description ?? "0000-01-01", to?.description ?? "9999-12-31"] + (search?.arguments ?? []))
        ).map(Entry.init(row:))
    }

    func startingTotalsSet(_ params: Params) async throws -> StartingTotals {
        var values: [(String, Int)] = []
        for name in ColumnTotals.names {
            let key = LogbookParams.starting(name)
            let input = key.name
            guard let v = params[key] else { continue }
            values.append((name, name.hasSuffix("_min") ? try Minutes.parse(v, field: input) : Int(v.intValue ?? 0)))
        }
        let total = values.first { $0.0 == "total_min" }?.1 ?? 0
        for (name, v) in values where name.hasSuffix("_min") && !["total_min", "fstd_min"].contains(name) && v > total {
            throw RPCError.invalidParam(String(name.dropLast(4)), "(\(Minutes.hhmm(v))) exceeds the brought-forward total (\(Minutes.hhmm(total)))")
        }
        let given = values
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM logbook_starting_totals")
            for (name, v) in given {
                try db.execute(sql: "INSERT INTO logbook_starting_totals (column, value) VALUES (?, ?)", arguments: [name, v])
            }
            return StartingTotals(starting: try ColumnTotals.loadStarting(db))
        }
    }

    func limits(_ params: Params) async throws -> LimitsResult {
        let at = day(params, LogbookParams.at) ?? today
        return try await database.read { db in try FlightTimeLimits.report(db, at: at) }
    }

    func ratings(_ params: Params) async throws -> RatingsResult {
        try await ratings(at: day(params, LogbookParams.at) ?? today)
    }

    /// Each class rating with what its last 12 months before expiry hold: one read of the flights
    /// since the earliest window opens.
    func ratings(at: Day) async throws -> RatingsResult {
        try await database.read { db in try Self.ratingsReport(db, at: at) }
    }

    static func ratingsReport(_ db: Database, at: Day) throws -> RatingsResult {
        let certificates = try Row.fetchAll(db, sql: "SELECT * FROM logbook_certificates WHERE kind = 'rating' ORDER BY expiry_date, id")
            .map(Certificate.init)
        let expiries = certificates.compactMap(\.expiry)
        guard let earliest = expiries.min() else { return RatingsResult(at: at, ratings: []) }
        let aircraft = try Aircraft.all(db)
        let flights = try Row.fetchAll(
            db,
            sql: """
                SELECT id, date, registration, total_min, pic_min + spic_min, takeoffs_day + takeoffs_night,
                landings_day + landings_night, dual_min
                FROM logbook_entries WHERE kind = 'flight' AND deleted_at IS NULL AND date >= ? AND date <= ?
                """,
            arguments: [earliest.adding(months: -12).description, min(at, expiries.max()!).description]
        ).map { row in
            RatingRules.Flight(
                id: row[0], day: Day(row[1] as String) ?? Day(number: 0),
                aircraftClass: aircraft[row[2] as String? ?? ""]?.currencyGroup ?? "unknown", totalMinutes: row[3], picMinutes: row[4],
                takeoffs: row[5], landings: row[6], dualMinutes: row[7])
        }
        let bases = Set(certificates.compactMap(\.classRating).map(RatingRules.base))
        return RatingsResult(
            at: at,
            ratings: certificates.compactMap { c in
                guard let expiry = c.expiry, let rating = c.classRating else { return nil }
                let byExperience = RatingRules.byExperience.contains(RatingRules.base(rating))
                return RatingItem(
                    certificate: c, at: at, expiry: expiry,
                    assessment: byExperience
                        ? RatingRules.assess(rating: rating, expiry: expiry, at: at, heldBases: bases, flights: flights) : nil)
            })
    }

    func currency(_ params: Params) async throws -> CurrencyResult {
        try await currency(at: day(params, LogbookParams.at) ?? today)
    }

    func currency(at: Day) async throws -> CurrencyResult {
        try await database.read { db in
            let profile = try Profile.load(db)
            return CurrencyReport.build(flights: try Self.recencyFlights(db, at: at, profile: profile), profile: profile, at: at)
        }
    }

    /// The flights recency depends on: everything in the last 25 months, then older flights only
    /// for groups whose requirements those do not yet meet (so 100 000 flights are not all read).
    static func recencyFlights(_ db: Database, at: Day, profile: Profile) throws -> [RecencyFlight] {
        let aircraft = try Aircraft.all(db)
        func flight(_ row: Row) -> RecencyFlight {
            let a = aircraft[row[0] as String? ?? ""]
            return RecencyFlight(
                day: Day(row[1] as String) ?? Day(number: 0), group: a?.currencyGroup ?? "unknown", category: a?.category ?? "aeroplane",
                takeoffs: (row[2] as Int) + (row[3] as Int), landings: (row[4] as Int) + (row[5] as Int),
                nightTakeoffs: row[3], nightLandings: row[5], picMinutes: row[6])
        }
        let columns = "registration, date, takeoffs_day, takeoffs_night, landings_day, landings_night, pic_min + spic_min"
        let cutoff = at.adding(months: -25)
        var flights = try Row.fetchAll(
            db,
            sql: "SELECT \(columns) FROM logbook_entries WHERE kind = 'flight' AND deleted_at IS NULL AND date > ? AND date <= ? ORDER BY date DESC",
            arguments: [cutoff.description, at.description]
        ).map(flight)

        struct Need { var to = 3, ldg = 3, nto = 1, nldg = 1 }
        var needs: [String: Need] = [:]
        let groups = try String.fetchAll(db, sql: "SELECT DISTINCT reg_key FROM logbook_month_totals WHERE kind = 'flight' AND entries > 0")
            .map { aircraft[$0]?.currencyGroup ?? "unknown" }
        for g in groups { needs[g] = Need() }
        var lapl = (pic: profile.holdsLAPL ? 720 : 0, to: profile.holdsLAPL ? 12 : 0, ldg: profile.holdsLAPL ? 12 : 0)
        func account(_ f: RecencyFlight) {
            if var n = needs[f.group] {
                n.to -= f.takeoffs
                n.ldg -= f.landings
                n.nto -= f.nightTakeoffs
                n.nldg -= f.nightLandings
                needs[f.group] = (n.to <= 0 && n.ldg <= 0 && n.nto <= 0 && n.nldg <= 0) ? nil : n
            }
            if f.category == "aeroplane" {
                lapl.pic -= f.picMinutes
                lapl.to -= f.takeoffs
                lapl.ldg -= f.landings
            }
        }
        flights.forEach(account)
        if needs.isEmpty && lapl.pic <= 0 && lapl.to <= 0 && lapl.ldg <= 0 { return flights }
        let cursor = try Row.fetchCursor(
            db,
            sql: "SELECT \(columns) FROM logbook_entries WHERE kind = 'flight' AND deleted_at IS NULL AND date <= ? ORDER BY date DESC",
            arguments: [cutoff.description])
        while let row = try cursor.next() {
            let f = flight(row)
            let useful = needs[f.group] != nil || (f.category == "aeroplane" && (lapl.pic > 0 || lapl.to > 0 || lapl.ldg > 0))
            if useful {
                flights.append(f)
                account(f)
            }
            if needs.isEmpty && lapl.pic <= 0 && lapl.to <= 0 && lapl.ldg <= 0 { break }
        }
        return flights
    }

    func night(_ params: Params) async throws -> NightLeg {
        typealias P = LogbookParams
        func t(_ text: String?, _ name: String) throws(RPCError) -> UTCMinute? {
            guard let text else { return nil }
            guard let v = UTCMinute.parseISO(text) else { throw RPCError.invalidParam(name, "must be an ISO 8601 UTC time") }
            return v
        }
        guard let out = try t(try params[P.legOut], P.legOut.name), let inAt = try t(try params[P.legIn], P.legIn.name) else {
            throw RPCError.invalidParam(P.legOut.name, "is required")
        }
        let off = try t(params[P.legOff], P.legOff.name)
        let on = try t(params[P.legOn], P.legOn.name)
        guard inAt > out else { throw LogbookParams.inTime.invalid("(\(inAt)) must be after 'out' (\(out))") }
        guard inAt.value - out.value <= 30 * 60 else { throw LogbookParams.inTime.invalid("is more than 30 hours after 'out'") }
        if let off, off < out || off > inAt { throw LogbookParams.off.invalid("must lie between 'out' and 'in'") }
        if let on, on < (off ?? out) || on > inAt { throw LogbookParams.on.invalid("must lie between 'off' (or 'out') and 'in'") }
        let (lookup, profile) = try await database.read { db in (try AirportLookup.load(db), try Profile.load(db)) }
        let dep = try lookup.require(try params[P.legDep], field: P.legDep.name)
        let arr = try lookup.require(try params[P.legArr], field: P.legArr.name)
        let criterion = params[P.criterion].flatMap(NightCriterion.init(rawValue:)) ?? profile.nightCriterion
        let r = NightCalculator.compute(dep: dep, arr: arr, out: out, in: inAt, off: off, on: on, criterion: criterion)
        return NightLeg(
            dep: dep.icao, arr: arr.icao, criterion: criterion, blockMinutes: inAt.value - out.value, nightMinutes: r.nightMinutes,
            nightTakeoff: r.nightTakeoff, nightLanding: r.nightLanding)
    }
}
