import PluginKit

/// Reading flight fields from validated JSON-RPC parameters.
enum FlightParams {
    /// Overlays the given parameters on `draft`.
    static func apply(_ params: Params, to draft: inout FlightDraft) throws(RPCError) {
        typealias P = LogbookParams
        if let d = params[P.date] { draft.date = Day(d) }
        if let s = params[P.dep] { draft.dep = s }
        if let s = params[P.arr] { draft.arr = s }
        if let s = params[P.aircraft] { draft.registration = s }
        let base = draft.date ?? draft.out?.day
        if let s = params[P.out] { draft.out = try time(s, field: P.out.name, on: base, after: nil) }
        let reference = draft.out
        if let s = params[P.off] { draft.off = try time(s, field: P.off.name, on: base, after: reference) }
        if let s = params[P.on] { draft.on = try time(s, field: P.on.name, on: base, after: reference) }
        if let s = params[P.inTime] { draft.inAt = try time(s, field: P.inTime.name, on: base, after: reference) }
        // A duty's clock times are read on the flight's date, the end past midnight when before the start.
        let dutyDay = draft.date ?? draft.out?.day
        // Empty clears the flight's duty (both, so the pair stays whole).
        if let s = params[P.dutyStart] { draft.dutyStart = s.isEmpty ? nil : try time(s, field: P.dutyStart.name, on: dutyDay, after: nil) }
        if let s = params[P.dutyEnd] {
            draft.dutyEnd =
                s.isEmpty ? nil : try time(s, field: P.dutyEnd.name, on: dutyDay, after: draft.dutyStart, afterName: P.dutyStart.name)
        }
        for c in TimeColumn.allCases {
            if let v = params[P.time(c)] { draft.times[c] = try Minutes.parse(v, field: c.name) }
        }
        for c in CountColumn.allCases {
            if let v = params[P.count(c)] { draft.counts[c] = Int(v) }
        }
        if let s = params[P.function] { draft.function = s }
        if let s = params[P.picName] { draft.picName = s }
        if let s = params[P.remarks] { draft.remarks = s }
    }

    /// ISO 8601 UTC, or `HH:MM` on `day` (rolled to the next day when before `after`).
    static func time(_ text: String, field: String, on day: Day?, after: UTCMinute?, afterName: String = "out") throws(RPCError) -> UTCMinute {
        if let t = UTCMinute.parseISO(text) { return t }
        if let minute = UTCMinute.clockMinutes(text) {
            guard let day = day ?? after?.day else {
                throw RPCError.invalidParam(field, "'\(text)' is a clock time; give 'date' too, or a full ISO 8601 time like 2026-03-01T14:05:00Z")
            }
            var t = UTCMinute(day: day, minuteOfDay: minute)
            if let after, t < after {
                t = UTCMinute(t.value + 1440)
                // Past midnight is normal; "in 07:00" after "out 08:00" is far likelier a typo
                // than a 23-hour flight.
                if t.value - after.value > 18 * 60 {
                    throw RPCError.invalidParam(
                        field, "(\(text)) is before '\(afterName)' (\(after.clock)); for a span past midnight this long, give full ISO 8601 times")
                }
            }
            return t
        }
        throw RPCError.invalidParam(field, "'\(text)' is not a UTC time; use ISO 8601 like 2026-03-01T14:05:00Z (or HH:MM with 'date')")
    }
}
