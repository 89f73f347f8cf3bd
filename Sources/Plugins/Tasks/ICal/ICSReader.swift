import CICal
import Foundation
import HostCore

/// An RFC 5545 calendar → tasks, through libical's parser (which unfolds lines, unescapes text and
/// splits multi-valued CATEGORIES). Overridden instances (RECURRENCE-ID) are merged into their
/// series; properties this plugin does not model are kept as their content lines.
struct ICSReader {
    struct Problem: Sendable { var uid: String?; var summary: String?; var reason: String }

    var items: [TaskItem] = []
    var problems: [Problem] = []
    /// The text is not an iCalendar object at all.
    var notCalendar = false

    /// Properties the reader maps to fields; every other one is kept verbatim in `extra`.
    private static let modelled: Set<String> = [
        "UID", "DTSTAMP", "CREATED", "LAST-MODIFIED", "SEQUENCE", "SUMMARY", "DESCRIPTION", "LOCATION", "URL", "PRIORITY", "STATUS",
        "COMPLETED", "PERCENT-COMPLETE", "CATEGORIES", "RELATED-TO", "DTSTART", "DUE", "DTEND", "DURATION", "RRULE", "EXDATE",
        "RDATE", "RECURRENCE-ID", "X-ASSISTANT-CATEGORY", "X-ASSISTANT-REPEAT-FROM", "X-ASSISTANT-CHANNELS", "X-ASSISTANT-NO-START",
        "X-LIC-ERROR",
    ]

    init(text: String, defaultZone: Zone, now: Date, source: String = "local") {
        guard let root = text.withCString({ icalparser_parse_string($0) }) else {
            problems.append(Problem(reason: "it is not an iCalendar file (no BEGIN:VCALENDAR)"))
            notCalendar = true
            return
        }
        defer { icalcomponent_free(root) }
        var components: [OpaquePointer] = []
        let rootKind = icalcomponent_isa(root)
        if rootKind != ICAL_VCALENDAR_COMPONENT && rootKind != ICAL_VTODO_COMPONENT && rootKind != ICAL_VEVENT_COMPONENT
            && rootKind != ICAL_XROOT_COMPONENT
        {
            problems.append(Problem(reason: "it is not an iCalendar file (no BEGIN:VCALENDAR)"))
            notCalendar = true
            return
        }
        if rootKind == ICAL_VTODO_COMPONENT || rootKind == ICAL_VEVENT_COMPONENT {
            components = [root]
        } else {
            var c = icalcomponent_get_first_component(root, ICAL_ANY_COMPONENT)
            while let current = c {
                let kind = icalcomponent_isa(current)
                if kind == ICAL_VTODO_COMPONENT || kind == ICAL_VEVENT_COMPONENT { components.append(current) }
                c = icalcomponent_get_next_component(root, ICAL_ANY_COMPONENT)
            }
        }
        var masters: [String: TaskItem] = [:]
        var order: [String] = []
        var pendingOverrides: [(uid: String, rid: WallTime, override: OccurrenceOverride, summary: String?)] = []
        for c in components {
            var reader = ComponentReader(component: c, calendar: root, defaultZone: defaultZone, now: now)
            do {
                let parsed = try reader.read(source: source)
                if let rid = parsed.recurrenceID {
                    pendingOverrides.append((parsed.task.id, rid, parsed.override, parsed.task.title))
                } else {
                    if masters[parsed.task.id] == nil { order.append(parsed.task.id) }
                    masters[parsed.task.id] = parsed.task
                }
            } catch let problem {
                problems.append(problem)
            }
        }
        for o in pendingOverrides {
            guard var master = masters[o.uid] else {
                problems.append(Problem(uid: o.uid, summary: o.summary, reason: "an overridden instance (RECURRENCE-ID) without its series"))
                continue
            }
            let key = master.allDay ? o.rid.asDate.text : o.rid.text
            master.overrides[key] = o.override
            masters[o.uid] = master
        }
        items = order.compactMap { masters[$0] }
    }
}

extension ICSReader.Problem: Error {}

/// Reads one VTODO or VEVENT.
private struct ComponentReader {
    let component: OpaquePointer
    let calendar: OpaquePointer
    let defaultZone: Zone
    let now: Date

    struct Parsed {
        var task: TaskItem
        var recurrenceID: WallTime?
        var override: OccurrenceOverride
    }

    /// A DATE or DATE-TIME value: the wall time in the item's zone, and that zone when the value names one.
    private func time(_ p: OpaquePointer, into zone: inout Zone?) -> WallTime? {
        let t: icaltimetype =
            icalproperty_isa(p) == ICAL_RDATE_PROPERTY ? icalproperty_get_rdate(p).time : icalvalue_get_datetime(icalproperty_get_value(p))
        if icaltime_is_null_time(t) != 0 { return nil }
        let wall = WallTime(year: Int(t.year), month: Int(t.month), day: Int(t.day), hour: Int(t.hour), minute: Int(t.minute),
                            second: Int(t.second), isDate: t.is_date != 0)
        guard wall.isValid else { return nil }
        if wall.isDate { return wall }
        if icaltime_is_utc(t) != 0 {
            let instant = Zone.utc.instant(wall)
            return (zone ?? defaultZone).wall(instant)
        }
        if let param = icalproperty_get_first_parameter(p, ICAL_TZID_PARAMETER), let raw = icalparameter_get_tzid(param) {
            let tzid = String(cString: raw)
            // libical's own prefix, and the "/…/" style some exporters copy from it.
            let plain = tzid.hasPrefix("/") ? tzid.split(separator: "/").suffix(2).joined(separator: "/") : tzid
            if let z = Zone(identifier: plain) {
                if zone == nil { zone = z }
                if z.identifier == zone?.identifier { return wall }
                return zone!.wall(z.instant(wall))
            }
            // A Windows or custom TZID: the file's VTIMEZONE converts it to an instant.
            if let vtz = icalcomponent_get_timezone(calendar, raw) {
                let seconds = icaltime_as_timet_with_zone(t, vtz)
                return (zone ?? defaultZone).wall(Date(timeIntervalSince1970: TimeInterval(seconds)))
            }
            return nil
        }
        return wall
    }

    private static func string(_ c: UnsafePointer<CChar>?) -> String? { c.map { String(cString: $0) } }

    mutating func read(source: String) throws(ICSReader.Problem) -> Parsed {
        let isEvent = icalcomponent_isa(component) == ICAL_VEVENT_COMPONENT
        var uid: String?, summary: String?
        var t = TaskItem(id: "", kind: isEvent ? .event : .todo, title: "", created: now, modified: now, tz: defaultZone.identifier)
        t.source = source
        var zone: Zone?
        var start: WallTime?, due: WallTime?, end: WallTime?, rid: WallTime?
        var durationSeconds: Int?
        var categories: [String] = []
        var explicitCategory: String?
        var noStart = false
        var percent = 0
        var override = OccurrenceOverride()
        var exdates: [WallTime] = [], rdates: [WallTime] = []
        var problem: String?

        // Zone first: DTSTART's TZID is the item's tz, so every other time is read on its wall clock.
        if let p = icalcomponent_get_first_property(component, ICAL_DTSTART_PROPERTY) ?? icalcomponent_get_first_property(component, ICAL_DUE_PROPERTY) {
            _ = time(p, into: &zone)
        }
        var p = icalcomponent_get_first_property(component, ICAL_ANY_PROPERTY)
        while let prop = p {
            defer { p = icalcomponent_get_next_property(component, ICAL_ANY_PROPERTY) }
            let kind = icalproperty_isa(prop)
            let name = Self.string(icalproperty_get_property_name(prop)) ?? ""
            switch kind {
            case ICAL_UID_PROPERTY: uid = Self.string(icalproperty_get_uid(prop))
            case ICAL_SUMMARY_PROPERTY: summary = Self.string(icalproperty_get_summary(prop))
            case ICAL_DESCRIPTION_PROPERTY: t.notes = Self.string(icalproperty_get_description(prop)) ?? ""
            case ICAL_LOCATION_PROPERTY: t.location = Self.string(icalproperty_get_location(prop))
            case ICAL_URL_PROPERTY: t.url = Self.string(icalproperty_get_url(prop))
            case ICAL_PRIORITY_PROPERTY: t.priority = min(9, max(0, Int(icalproperty_get_priority(prop))))
            case ICAL_SEQUENCE_PROPERTY: t.sequence = Int(icalproperty_get_sequence(prop))
            case ICAL_PERCENTCOMPLETE_PROPERTY: percent = Int(icalproperty_get_percentcomplete(prop))
            case ICAL_STATUS_PROPERTY:
                switch icalproperty_get_status(prop) {
                case ICAL_STATUS_INPROCESS: t.status = .inProcess
                case ICAL_STATUS_COMPLETED: t.status = .completed
                case ICAL_STATUS_CANCELLED: t.status = .cancelled
                default: t.status = .needsAction
                }
            case ICAL_COMPLETED_PROPERTY, ICAL_CREATED_PROPERTY, ICAL_LASTMODIFIED_PROPERTY:
                var utc: Zone? = Zone.utc
                if let w = time(prop, into: &utc) {
                    let instant = Zone.utc.instant(w)
                    if kind == ICAL_COMPLETED_PROPERTY { t.completedAt = instant }
                    else if kind == ICAL_CREATED_PROPERTY { t.created = instant }
                    else { t.modified = instant }
                }
            case ICAL_CATEGORIES_PROPERTY:
                if let v = Self.string(icalproperty_get_categories(prop)) {
                    categories += v.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
                }
            case ICAL_RELATEDTO_PROPERTY:
                let parameter = icalproperty_get_first_parameter(prop, ICAL_RELTYPE_PARAMETER)
                if parameter == nil || icalparameter_get_reltype(parameter) == ICAL_RELTYPE_PARENT {
                    t.parent = Self.string(icalproperty_get_relatedto(prop))
                } else {
                    t.extra.append(Self.line(prop))
                }
            case ICAL_DTSTART_PROPERTY: start = time(prop, into: &zone)
            case ICAL_DUE_PROPERTY: due = time(prop, into: &zone)
            case ICAL_DTEND_PROPERTY: end = time(prop, into: &zone)
            case ICAL_RECURRENCEID_PROPERTY: rid = time(prop, into: &zone)
            case ICAL_EXDATE_PROPERTY: if let w = time(prop, into: &zone) { exdates.append(w) }
            case ICAL_RDATE_PROPERTY: if let w = time(prop, into: &zone) { rdates.append(w) }
            case ICAL_DURATION_PROPERTY: durationSeconds = Int(icaldurationtype_as_int(icalproperty_get_duration(prop)))
            case ICAL_RRULE_PROPERTY:
                if let raw = icalproperty_get_value_as_string_r(prop) {
                    let text = String(cString: raw)
                    free(raw)
                    do { t.rrule = try RecurrenceRule(text).text } catch { problem = "RRULE \(text): \(error.message)" }
                }
            case ICAL_XLICERROR_PROPERTY:
                // A property libical could not parse (a bad time, a bad RRULE): importing without it would lose data.
                problem = Self.string(icalproperty_get_xlicerror(prop)) ?? "an unreadable property"
            default:
                switch name {
                case "X-ASSISTANT-CATEGORY": explicitCategory = Self.string(icalproperty_get_x(prop))?.lowercased()
                case "X-ASSISTANT-REPEAT-FROM": t.repeatFromCompletion = Self.string(icalproperty_get_x(prop))?.uppercased() == "COMPLETION"
                case "X-ASSISTANT-NO-START": noStart = true
                case "X-ASSISTANT-CHANNELS":
                    t.channels = (Self.string(icalproperty_get_x(prop)) ?? "").split(separator: ",").map(String.init)
                        .filter { NoticeChannel(rawValue: $0) != nil }
                default:
                    if kind != ICAL_DTSTAMP_PROPERTY { t.extra.append(Self.line(prop)) }
                }
            }
        }
        t.title = summary ?? ""
        guard let uid, !uid.isEmpty else { throw ICSReader.Problem(uid: nil, summary: summary, reason: "no UID") }
        t.id = uid
        if let problem { throw ICSReader.Problem(uid: uid, summary: summary, reason: problem) }
        if t.title.isEmpty { t.title = "(untitled)" }
        if let zone { t.tz = zone.identifier }
        if percent == 100 && t.status != .cancelled { t.status = .completed }
        if t.status == .completed && t.completedAt == nil { t.completedAt = t.modified }

        // Categories: X-ASSISTANT-CATEGORY names ours; otherwise the first value if it is a known category.
        if let explicitCategory {
            t.category = explicitCategory
            if let i = categories.firstIndex(where: { $0.lowercased() == explicitCategory }) { categories.remove(at: i) }
        }
        t.tags = categories

        if noStart { start = nil }
        if isEvent {
            t.start = start
            if let end { t.end = end } else if let s = durationSeconds { t.durationMin = s / 60 }
        } else {
            t.start = start
            t.due = due
            if due == nil, let s = durationSeconds, start != nil { t.durationMin = s / 60 }
        }
        t.allDay = (t.start ?? t.due)?.isDate ?? false
        t.exdates = exdates.map { t.allDay ? $0.asDate : $0 }
        t.rdates = rdates.map { t.allDay ? $0.asDate : $0 }

        // Alarms → reminders.
        var alarm = icalcomponent_get_first_component(component, ICAL_VALARM_COMPONENT)
        while let a = alarm {
            if let trigger = icalcomponent_get_first_property(a, ICAL_TRIGGER_PROPERTY) {
                let value = icalproperty_get_trigger(trigger)
                if icaltime_is_null_time(value.time) == 0 {
                    var utc: Zone? = Zone.utc
                    if let w = time(trigger, into: &utc) { t.reminders.append(Reminder(at: Zone.utc.instant(w))) }
                } else {
                    let seconds = Int(icaldurationtype_as_int(value.duration))
                    let related = icalproperty_get_first_parameter(trigger, ICAL_RELATED_PARAMETER)
                    let toEnd = related != nil && icalparameter_get_related(related) == ICAL_RELATED_END
                    t.reminders.append(Reminder(beforeMin: -seconds / 60, of: toEnd && !isEvent ? .due : .start))
                }
            }
            alarm = icalcomponent_get_next_component(component, ICAL_VALARM_COMPONENT)
        }

        if let rid {
            override.title = summary
            override.notes = t.notes.isEmpty ? nil : t.notes
            override.location = t.location
            override.status = t.status
            override.start = start?.text
            override.due = isEvent ? nil : due?.text
            if isEvent {
                if let end { override.end = end.text } else if let s = durationSeconds, let st = start { override.end = st.adding(seconds: Int64(s)).text }
            }
            override.extra = t.extra
            return Parsed(task: t, recurrenceID: t.allDay ? rid.asDate : rid, override: override)
        }
        return Parsed(task: t, recurrenceID: nil, override: override)
    }

    /// The property as one unfolded content line, without its line end.
    static func line(_ p: OpaquePointer) -> String {
        guard let raw = icalproperty_as_ical_string_r(p) else { return "" }
        defer { free(raw) }
        return String(cString: raw).replacingOccurrences(of: "\r\n ", with: "").replacingOccurrences(of: "\r\n\t", with: "")
            .trimmingCharacters(in: .newlines)
    }
}
