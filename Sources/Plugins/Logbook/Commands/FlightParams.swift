import HostCore

/// Reading flight fields from validated JSON-RPC parameters.
enum FlightParams {
    static let durationHelp = "duration: minutes as an integer, or \"H:MM\" / decimal hours as a string"

    static var specs: [ParamSpec] {
        var specs: [ParamSpec] = [
            ParamSpec("date", .date, help: "UTC date of block off (YYYY-MM-DD); needed when out/in are given as HH:MM"),
            ParamSpec("dep", .string, help: "departure airport (ICAO, or IATA)"),
            ParamSpec("arr", .string, help: "arrival airport (ICAO, or IATA)"),
            ParamSpec("out", .string, help: "block off, ISO 8601 UTC (or HH:MM on 'date')"),
            ParamSpec("off", .string, help: "takeoff, ISO 8601 UTC (or HH:MM)"),
            ParamSpec("on", .string, help: "landing, ISO 8601 UTC (or HH:MM)"),
            ParamSpec("in", .string, help: "block on, ISO 8601 UTC (or HH:MM; earlier than out means the next day)"),
            ParamSpec("aircraft", .string, help: "registration of an aircraft in the logbook"),
        ]
        for c in TimeColumn.allCases {
            specs.append(
                ParamSpec(
                    c.name, .duration,
                    help: "\(c.name) time; \(durationHelp)\(c == .night ? " (computed when omitted)" : c == .total ? " (out..in when omitted)" : "")")
            )
        }
        for c in CountColumn.allCases {
            specs.append(ParamSpec(c.name, .integer(min: 0, max: 999), help: "\(c.name.replacingOccurrences(of: "_", with: " ")) (count)"))
        }
        specs += [
            ParamSpec(
                "function", .oneOf(TimeColumn.functionNames + ["none"]),
                help: "put the whole flight time in this function column (default: the profile's default function)"),
            ParamSpec("pic_name", .string, help: "name of the PIC (SELF when you were PIC)"),
            ParamSpec("remarks", .string, help: "remarks and endorsements"),
            ParamSpec("duty_start", .string, help: "duty period start, ISO 8601 UTC"),
            ParamSpec("duty_end", .string, help: "duty period end, ISO 8601 UTC"),
        ]
        return specs
    }

    /// Overlays the given parameters on `draft`.
    static func apply(_ params: Params, to draft: inout FlightDraft) throws(RPCError) {
        if let d = params.string("date") { draft.date = Day(d) }
        if let s = params.string("dep") { draft.dep = s }
        if let s = params.string("arr") { draft.arr = s }
        if let s = params.string("aircraft") { draft.registration = s }
        let base = draft.date ?? draft.out?.day
        if let s = params.string("out") { draft.out = try time(s, field: "out", on: base, after: nil) }
        let reference = draft.out
        if let s = params.string("off") { draft.off = try time(s, field: "off", on: base, after: reference) }
        if let s = params.string("on") { draft.on = try time(s, field: "on", on: base, after: reference) }
        if let s = params.string("in") { draft.inAt = try time(s, field: "in", on: base, after: reference) }
        if let s = params.string("duty_start") { draft.dutyStart = try time(s, field: "duty_start", on: nil, after: nil) }
        if let s = params.string("duty_end") { draft.dutyEnd = try time(s, field: "duty_end", on: nil, after: nil) }
        for c in TimeColumn.allCases {
            if let v = params[c.name] { draft.times[c] = try Minutes.parse(v, field: c.name) }
        }
        for c in CountColumn.allCases {
            if let v = params.int(c.name) { draft.counts[c] = Int(v) }
        }
        if let s = params.string("function") { draft.function = s }
        if let s = params.string("pic_name") { draft.picName = s }
        if let s = params.string("remarks") { draft.remarks = s }
    }

    /// ISO 8601 UTC, or `HH:MM` on `day` (rolled to the next day when before `after`).
    static func time(_ text: String, field: String, on day: Day?, after: UTCMinute?) throws(RPCError) -> UTCMinute {
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
                        field, "(\(text)) is before 'out' (\(after.clock)); for a flight past midnight this long, give full ISO 8601 times")
                }
            }
            return t
        }
        throw RPCError.invalidParam(field, "'\(text)' is not a UTC time; use ISO 8601 like 2026-03-01T14:05:00Z (or HH:MM with 'date')")
    }
}
