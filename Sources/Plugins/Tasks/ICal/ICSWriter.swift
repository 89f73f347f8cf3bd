import CICal
import Foundation

/// Tasks → an RFC 5545 VCALENDAR through libical: it escapes text, folds lines at 75 octets and
/// ends them with CRLF; its built-in zone data gives each TZID's VTIMEZONE.
enum ICSWriter {
    static let prodID = "-//assistantd//Tasks 1.0//EN"

    /// libical's time-zone cache is global and not safe to fill from two threads at once.
    private static let zoneLock = NSLock()

    static func calendar(_ tasks: [TaskItem], method: String? = nil, syncAlarms: Bool = true, stamp: Date = Date()) -> String {
        let cal = icalcomponent_new(ICAL_VCALENDAR_COMPONENT)!
        defer { icalcomponent_free(cal) }
        add(cal, "PRODID:\(prodID)")
        add(cal, "VERSION:2.0")
        if let method { add(cal, "METHOD:\(method)") }
        var zones: [String: WallTime] = [:]
        for t in tasks {
            for w in [t.start, t.due, t.end].compactMap({ $0 }) where !w.isDate && t.tz != "UTC" {
                zones[t.tz] = min(zones[t.tz] ?? w, w)
            }
        }
        for (tzid, earliest) in zones.sorted(by: { $0.key < $1.key }) {
            if let vtz = timezoneComponent(tzid, from: earliest) { icalcomponent_add_component(cal, vtz) }
        }
        for t in tasks {
            icalcomponent_add_component(cal, component(t, recurrenceID: nil, override: nil, syncAlarms: syncAlarms, stamp: stamp))
            for (key, o) in t.overrides.sorted(by: { $0.key < $1.key }) {
                guard let wall = WallTime(key) else { continue }
                icalcomponent_add_component(cal, component(t, recurrenceID: wall, override: o, syncAlarms: syncAlarms, stamp: stamp))
            }
        }
        guard let text = icalcomponent_as_ical_string_r(cal) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }

    private static func timezoneComponent(_ tzid: String, from earliest: WallTime) -> OpaquePointer? {
        zoneLock.lock()
        defer { zoneLock.unlock() }
        guard let zone = icaltimezone_get_builtin_timezone(tzid), let vtz = icaltimezone_get_component(zone),
            let copy = icalcomponent_new_clone(vtz)
        else { return nil }
        var start = icaltime_null_time()
        start.year = Int32(earliest.year - 1)
        start.month = 1
        start.day = 1
        var end = icaltime_null_time()
        end.year = 2100
        end.month = 1
        end.day = 1
        icaltimezone_truncate_vtimezone(copy, start, end, 0)
        // libical names its zones "/freeassociation.sourceforge.net/Europe/Prague" and adds TZUNTIL
        // (RFC 7808), which several readers refuse; calendars expect the plain IANA id.
        if let tzidProperty = icalcomponent_get_first_property(copy, ICAL_TZID_PROPERTY) { icalproperty_set_tzid(tzidProperty, tzid) }
        for kind in [ICAL_TZUNTIL_PROPERTY, ICAL_X_PROPERTY] {
            while let p = icalcomponent_get_first_property(copy, kind) {
                icalcomponent_remove_property(copy, p)
                icalproperty_free(p)
            }
        }
        return copy
    }

    /// One content line (unfolded, escaped as iCalendar wants) parsed by libical into a property.
    @discardableResult
    static func add(_ component: OpaquePointer, _ line: String) -> Bool {
        guard let p = icalproperty_new_from_string(line) else { return false }
        icalcomponent_add_property(component, p)
        return true
    }

    static func addText(_ component: OpaquePointer, _ name: String, _ value: String) {
        let p: OpaquePointer? =
            switch name {
            case "SUMMARY": icalproperty_new_summary(value)
            case "DESCRIPTION": icalproperty_new_description(value)
            case "LOCATION": icalproperty_new_location(value)
            default: nil
            }
        if let p { icalcomponent_add_property(component, p) }
    }

    /// RFC 5545 §3.3.11 TEXT escaping, for the CATEGORIES list whose commas separate values.
    static func escape(_ text: String) -> String {
        var out = ""
        for c in text {
            switch c {
            case "\\": out += "\\\\"
            case ",": out += "\\,"
            case ";": out += "\\;"
            case "\n": out += "\\n"
            case "\r": break
            default: out.append(c)
            }
        }
        return out
    }

    static func timeLine(_ name: String, _ w: WallTime, tz: String) -> String {
        if w.isDate { return "\(name);VALUE=DATE:\(w.icalText)" }
        if tz == "UTC" { return "\(name):\(w.icalText)Z" }
        return "\(name);TZID=\(tz):\(w.icalText)"
    }

    /// The RRULE written so that it and DTSTART mean one set to every reader. A start that is
    /// not one of the rule's matches is instance 1 here, counted by COUNT (RFC 5545, the plugin's
    /// reading: `SeriesInstances`), but python-dateutil and clients like it leave it out. Written
    /// as UNTIL (the last instance) instead of COUNT, plus an RDATE of the start, both readings
    /// give the same set: an RDATE equal to DTSTART is the same instance, not a second one.
    static func portable(rule text: String, of t: TaskItem) -> (rule: String, startAsRDate: WallTime?) {
        let rule = RecurrenceRule(trusted: text)
        guard let anchor = t.anchor, !rule.startIsOnRule(anchor: anchor, zone: t.zone) else { return (text, nil) }
        guard let count = rule.part("COUNT").flatMap(Int.init) else { return (text, anchor) }
        guard let last = rule.occurrences(anchor: anchor, zone: t.zone, limit: count).last else { return (text, anchor) }
        let until = last.isDate ? last.icalText : utc(t.zone.instant(last))
        return (RecurrenceRule(trusted: rule.replacing("COUNT", with: nil)).replacing("UNTIL", with: until), anchor)
    }

    static func utc(_ d: Date) -> String {
        WallTime(wallSeconds: Int64(d.timeIntervalSince1970.rounded(.down))).icalText + "Z"
    }

    static func duration(seconds: Int64) -> String {
        var s = abs(seconds)
        var out = seconds < 0 ? "-P" : "P"
        let days = s / 86_400
        s %= 86_400
        if days > 0 { out += "\(days)D" }
        if s > 0 || days == 0 {
            out += "T"
            if s / 3600 > 0 { out += "\(s / 3600)H" }
            if s / 60 % 60 > 0 { out += "\(s / 60 % 60)M" }
            if s % 60 > 0 || s == 0 { out += "\(s % 60)S" }
        }
        return out
    }

    private static func component(
        _ t: TaskItem, recurrenceID: WallTime?, override: OccurrenceOverride?, syncAlarms: Bool, stamp: Date
    ) -> OpaquePointer {
        let c = icalcomponent_new(t.kind == .event ? ICAL_VEVENT_COMPONENT : ICAL_VTODO_COMPONENT)!
        add(c, "UID:\(t.id)")
        add(c, "DTSTAMP:\(utc(stamp))")
        add(c, "CREATED:\(utc(t.created))")
        add(c, "LAST-MODIFIED:\(utc(t.modified))")
        add(c, "SEQUENCE:\(t.sequence)")
        addText(c, "SUMMARY", override?.title ?? t.title)
        let notes = override?.notes ?? t.notes
        if !notes.isEmpty { addText(c, "DESCRIPTION", notes) }
        if let l = override?.location ?? t.location, !l.isEmpty { addText(c, "LOCATION", l) }
        if let u = t.url, let p = icalproperty_new_url(u) { icalcomponent_add_property(c, p) }
        if t.priority > 0 { add(c, "PRIORITY:\(t.priority)") }
        let status = override?.status ?? t.status
        if t.kind == .todo {
            add(c, "STATUS:\(status.ical)")
            if status == .completed {
                add(c, "COMPLETED:\(utc(t.completedAt ?? t.modified))")
                add(c, "PERCENT-COMPLETE:100")
            }
        } else {
            add(c, "STATUS:\(status == .cancelled ? "CANCELLED" : "CONFIRMED")")
        }
        let categories = (t.category.map { [$0] } ?? []) + t.tags
        // One property, values already escaped: libical writes a CATEGORIES value as given.
        if !categories.isEmpty, let p = icalproperty_new_categories(categories.map(escape).joined(separator: ",")) {
            icalcomponent_add_property(c, p)
        }
        if let cat = t.category { add(c, "X-ASSISTANT-CATEGORY:\(escape(cat))") }
        if let parent = t.parent { add(c, "RELATED-TO;RELTYPE=PARENT:\(parent)") }
        if let channels = t.channels { add(c, "X-ASSISTANT-CHANNELS:\(channels.joined(separator: ","))") }
        if let rid = recurrenceID { add(c, timeLine("RECURRENCE-ID", rid, tz: t.tz)) }

        // Times: the series' own, or the occurrence's (override applied).
        var start = t.start
        var due = t.due
        var end: WallTime? = nil
        if let rid = recurrenceID {
            let o = t.occurrence(at: rid)
            start = o.start
            due = o.due
            end = o.end
        }
        if let s = start {
            // A repeating to-do with only a due has its DTSTART at the due (RRULE needs DTSTART).
            add(c, timeLine("DTSTART", s, tz: t.tz))
        } else if t.kind == .todo, t.isRecurring, let d = due {
            add(c, timeLine("DTSTART", d, tz: t.tz))
            add(c, "X-ASSISTANT-NO-START:TRUE")
        }
        if t.kind == .todo {
            if let d = due {
                add(c, timeLine("DUE", d, tz: t.tz))
            } else if let m = t.durationMin, recurrenceID == nil {
                add(c, "DURATION:\(duration(seconds: Int64(m) * 60))")
            }
        } else if recurrenceID != nil, let e = end {
            add(c, timeLine("DTEND", e, tz: t.tz))
        } else if let e = t.end {
            add(c, timeLine("DTEND", e, tz: t.tz))
        } else if let m = t.durationMin {
            add(c, "DURATION:\(duration(seconds: Int64(m) * 60))")
        }
        if recurrenceID == nil {
            var startAsRDate: WallTime?
            if let r = t.rrule {
                let portable = Self.portable(rule: r, of: t)
                add(c, "RRULE:\(portable.rule)")
                startAsRDate = portable.startAsRDate
            }
            for x in t.exdates { add(c, timeLine("EXDATE", x, tz: t.tz)) }
            for r in t.rdates { add(c, timeLine("RDATE", r, tz: t.tz)) }
            if let s = startAsRDate, !t.rdates.contains(s) { add(c, timeLine("RDATE", s, tz: t.tz)) }
            if t.repeatFromCompletion { add(c, "X-ASSISTANT-REPEAT-FROM:COMPLETION") }
        }
        for line in (override?.extra ?? (recurrenceID == nil ? t.extra : [])) { add(c, line) }
        if syncAlarms {
            for r in t.reminders { icalcomponent_add_component(c, alarm(r, task: t, summary: override?.title ?? t.title)) }
        }
        return c
    }

    private static func alarm(_ r: Reminder, task t: TaskItem, summary: String) -> OpaquePointer {
        let a = icalcomponent_new(ICAL_VALARM_COMPONENT)!
        add(a, "ACTION:DISPLAY")
        addText(a, "DESCRIPTION", summary)
        if let at = r.at {
            add(a, "TRIGGER;VALUE=DATE-TIME:\(utc(at))")
        } else {
            // RELATED=END is DUE for a VTODO and DTEND for a VEVENT (RFC 5545 §3.8.6.3).
            let related = r.of == .due ? "END" : "START"
            add(a, "TRIGGER;RELATED=\(related):\(duration(seconds: -Int64(r.beforeMin ?? 0) * 60))")
        }
        return a
    }
}
