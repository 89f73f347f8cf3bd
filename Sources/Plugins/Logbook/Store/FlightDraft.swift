import PluginKit

/// What the pilot (or an import row) said about a flight; `complete` fills in what the logbook can
/// derive and validates the rest, naming the offending field.
struct FlightDraft: Sendable {
    var date: Day?
    var dep: String?
    var arr: String?
    var out: UTCMinute?
    var off: UTCMinute?
    var on: UTCMinute?
    var inAt: UTCMinute?
    var registration: String?
    var times: [TimeColumn: Int] = [:]
    var counts: [CountColumn: Int] = [:]
    var picName: String?
    /// Puts the whole flight time into this function column when no function time is given.
    var function: String?
    var remarks: String?
    var dutyStart: UTCMinute?
    var dutyEnd: UTCMinute?
}

/// What `complete` needs to look up.
struct DraftContext: Sendable {
    var airports: AirportLookup
    var aircraft: [String: Aircraft]
    var profile: Profile
    var criterion: NightCriterion
}

extension FlightDraft {
    func complete(_ ctx: DraftContext) throws(RPCError) -> Entry {
        guard let depCode = dep else { throw LogbookParams.dep.invalid("is required (departure airport, ICAO)") }
        guard let arrCode = arr else { throw LogbookParams.arr.invalid("is required (arrival airport, ICAO)") }
        let depAirport = try ctx.airports.require(depCode, field: "dep")
        let arrAirport = try ctx.airports.require(arrCode, field: "arr")
        guard let out else { throw LogbookParams.out.invalid("is required (block-off time, ISO 8601 UTC)") }
        guard let inAt else { throw LogbookParams.inTime.invalid("is required (block-on time, ISO 8601 UTC)") }
        guard inAt > out else { throw LogbookParams.inTime.invalid("(\(inAt)) must be after 'out' (\(out))") }
        let block = inAt.value - out.value
        guard block <= 30 * 60 else {
            throw LogbookParams.inTime.invalid("is \(Minutes.hhmm(block)) after 'out'; a flight cannot last over 30 hours")
        }
        if let off, off < out || off > inAt { throw LogbookParams.off.invalid("(\(off)) must lie between 'out' and 'in'") }
        if let on, on < (off ?? out) || on > inAt { throw LogbookParams.on.invalid("(\(on)) must lie between 'off' (or 'out') and 'in'") }
        if let date, date != out.day {
            throw LogbookParams.date.invalid("(\(date)) must be the UTC date of block off ('out' is \(out))")
        }
        guard let reg = registration.map(Aircraft.normalized), !reg.isEmpty else {
            throw LogbookParams.aircraft.invalid("is required (the registration of an aircraft added with logbook.aircraft.add)")
        }
        guard let aircraft = ctx.aircraft[reg] else {
            throw LogbookParams.aircraft.invalid("'\(reg)' is not in the logbook; add it first with logbook.aircraft.add")
        }
        if let dutyStart, let dutyEnd, dutyEnd <= dutyStart {
            throw LogbookParams.dutyEnd.invalid("must be after 'duty_start'")
        }
        if let dutyStart, abs(dutyStart.value - out.value) > Duty.longestMinutes {
            throw LogbookParams.dutyStart.invalid("(\(dutyStart)) is more than 36 hours from the flight's block off (\(out))")
        }
        if let dutyStart, let dutyEnd, dutyEnd.value - dutyStart.value > Duty.longestMinutes {
            throw LogbookParams.dutyEnd.invalid("makes a duty of \(Minutes.hhmm(dutyEnd.value - dutyStart.value)); at most 36:00 is one duty period")
        }
        if (dutyStart == nil) != (dutyEnd == nil) {
            throw RPCError.invalidParam(dutyStart == nil ? "duty_start" : "duty_end", "is needed too: give both duty_start and duty_end")
        }

        var e = Entry(kind: .flight, date: out.day)
        e.dep = depAirport.icao
        e.arr = arrAirport.icao
        e.out = out
        e.off = off
        e.on = on
        e.inAt = inAt
        e.registration = reg
        e.remarks = remarks ?? ""
        e.dutyStart = dutyStart
        e.dutyEnd = dutyEnd
        for (c, v) in times { e[c] = v }
        for (c, v) in counts { e[c] = v }

        let total = times[.total] ?? block
        e[.total] = total
        if total > block {
            throw LogbookParams.sessionTotal.invalid("(\(Minutes.hhmm(total))) exceeds the block time out..in (\(Minutes.hhmm(block)))")
        }
        if times[.spSE] == nil && times[.spME] == nil && times[.mp] == nil {
            e[aircraft.operation == "mp" ? .mp : (aircraft.engine == "me" ? .spME : .spSE)] = total
        }
        if TimeColumn.functions.allSatisfy({ times[$0] == nil }) {
            let function = self.function ?? ctx.profile.defaultFunction
            if let column = TimeColumn.functions.first(where: { $0.name == function }) { e[column] = total }
        }
        if let function, !TimeColumn.functionNames.contains(function), function != "none" {
            throw LogbookParams.withFunction.invalid("must be one of \(TimeColumn.functionNames.joined(separator: ", ")), none")
        }
        e.picName = picName ?? ((e[.pic] > 0 || e[.spic] > 0) ? "SELF" : nil)

        let needsSun =
            times[.night] == nil
            || [CountColumn.takeoffsDay, .takeoffsNight, .landingsDay, .landingsNight].allSatisfy { counts[$0] == nil }
        if needsSun {
            let night = NightCalculator.compute(
                dep: depAirport, arr: arrAirport, out: out, in: inAt, off: off, on: on, criterion: ctx.criterion)
            if times[.night] == nil { e[.night] = min(night.nightMinutes, total) }
            if [CountColumn.takeoffsDay, .takeoffsNight, .landingsDay, .landingsNight].allSatisfy({ counts[$0] == nil }) {
                e[night.nightTakeoff ? .takeoffsNight : .takeoffsDay] = 1
                e[night.nightLanding ? .landingsNight : .landingsDay] = 1
            }
        }
        // Landings given without takeoffs (most exports): every landing had its takeoff, by day or
        // by night as the sun stood at the departure airport at takeoff.
        if counts[.takeoffsDay] == nil && counts[.takeoffsNight] == nil && (counts[.landingsDay] != nil || counts[.landingsNight] != nil) {
            let landings = e[.landingsDay] + e[.landingsNight]
            let takeoffTime = Double((off ?? out).value) * 60
            let nightTakeoff = ctx.criterion.isNight(latitude: depAirport.latitude, longitude: depAirport.longitude, unixSeconds: takeoffTime)
            e[nightTakeoff ? .takeoffsNight : .takeoffsDay] = landings
        }
        for c in TimeColumn.allCases where c != .total && e[c] > total {
            throw RPCError.invalidParam(c.name, "(\(Minutes.hhmm(e[c]))) exceeds the total time (\(Minutes.hhmm(total)))")
        }
        if e[.spSE] + e[.spME] + e[.mp] > total {
            throw LogbookParams.time(.spSE).invalid("sp_se + sp_me + mp exceed the total time (\(Minutes.hhmm(total)))")
        }
        return e
    }

    /// The draft that reproduces a stored flight, for updates: every stored value is explicit.
    init(entry e: Entry) {
        date = e.date
        dep = e.dep
        arr = e.arr
        out = e.out
        off = e.off
        on = e.on
        inAt = e.inAt
        registration = e.registration
        for c in TimeColumn.allCases { times[c] = e[c] }
        for c in CountColumn.allCases { counts[c] = e[c] }
        picName = e.picName
        function = "none"
        remarks = e.remarks
        dutyStart = e.dutyStart
        dutyEnd = e.dutyEnd
    }
}
