import CICal
import Foundation
import PluginKit

/// An RFC 5545 calendar → tasks, through libical's parser (which unfolds lines, unescapes text and
/// splits multi-valued CATEGORIES). Overridden instances (RECURRENCE-ID) are merged into their
/// series; properties this plugin does not model are kept as their content lines.
struct ICSReader {
    struct Problem: Sendable {
        var uid: String?
        var summary: String?
        var reason: String
    }

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

    /// A calendar in memory (a feed's, a CalDAV server's): read whole, overridden instances merged.
    init(text: String, defaultZone: Zone, now: Date, source: String = "local") {
        let stream: ICSStream<CalendarText>
        do {
            stream = try ICSStream(CalendarText(text), defaultZone: defaultZone, now: now, source: source)
        } catch {
            problems.append(Problem(reason: error.reason))
            notCalendar = true
            return
        }
        if stream.notCalendar {
            problems.append(Problem(reason: CalendarLimits.notCalendar))
            notCalendar = true
            return
        }
        var masters: [String: TaskItem] = [:]
        var order: [String] = []
        var pendingOverrides: [ICSStream<CalendarText>.Override] = []
        do {
            while let item = try stream.next() {
                switch item {
                case .problem(let problem): problems.append(problem)
                case .override(let o): pendingOverrides.append(o)
                case .task(let task):
                    if masters[task.id] == nil { order.append(task.id) }
                    masters[task.id] = task
                }
            }
        } catch {
            problems.append(Problem(reason: error.reason))
        }
        for o in pendingOverrides {
            guard var master = masters[o.uid] else {
                problems.append(Problem(uid: o.uid, summary: o.summary, reason: CalendarLimits.orphan))
                continue
            }
            o.apply(to: &master)
            masters[o.uid] = master
        }
        items = order.compactMap { masters[$0] }
    }
}

/// The VEVENTs and VTODOs of a calendar one at a time, each parsed by libical on its own beside
/// the calendar's VTIMEZONEs, so that memory is one component's and never the file's (a 160 000
/// event file took 1 GB parsed whole). A first pass collects the time zones and which UIDs there
/// are, with how many overridden instances each has; the second yields the components.
final class ICSStream<Source: CalendarBytes> {

    /// An overridden instance (RECURRENCE-ID), to merge into its series.
    struct Override: Sendable {
        var uid: String
        var summary: String?
        var recurrenceID: WallTime
        var override: OccurrenceOverride

        func apply(to master: inout TaskItem) {
            let key = master.allDay ? recurrenceID.asDate.text : recurrenceID.text
            master.overrides[key] = override
        }
    }

    enum Item: Sendable {
        case task(TaskItem)
        case override(Override)
        case problem(ICSReader.Problem)
    }

    /// The file has no calendar in it.
    private(set) var notCalendar = false
    /// Every UID in the file, and how many overridden instances each has.
    private(set) var uids: [String: Int] = [:]

    private var lines: ContentLines<Source>
    private let zones: OpaquePointer
    private var parser: OpaquePointer
    private let defaultZone: Zone
    private let now: Date
    private let source: String
    private var stack: [String] = []

    init(_ bytes: Source, defaultZone: Zone, now: Date, source: String) throws(CalendarReadFailure) {
        self.defaultZone = defaultZone
        self.now = now
        self.source = source
        lines = ContentLines(bytes)
        parser = icalparser_new()
        var timeZoneLines: [[UInt8]] = [Array("BEGIN:VCALENDAR".utf8)]
        var sawCalendar = false
        do {
            var stack: [String] = []
            var inZone = false
            var blockUID: String?
            var blockIsOverride = false
            while let (line, number) = try lines.next() {
                guard String(validating: line, as: UTF8.self) != nil else { throw CalendarReadFailure(reason: "line \(number) is not UTF-8 text") }
                if let name = ICSSyntax.component(line, "BEGIN:") {
                    guard stack.count < CalendarLimits.outerNesting else {
                        throw CalendarReadFailure(reason: "line \(number) nests components deeper than \(CalendarLimits.outerNesting) levels")
                    }
                    if stack.isEmpty && (name == "VCALENDAR" || name == "VEVENT" || name == "VTODO") { sawCalendar = true }
                    if stack == ["VCALENDAR"] && name == "VTIMEZONE" { inZone = true }
                    stack.append(name)
                    if ICSSyntax.isBlock(stack) { (blockUID, blockIsOverride) = (nil, false) }
                } else if let name = ICSSyntax.component(line, "END:") {
                    if ICSSyntax.isBlock(stack), let uid = blockUID {
                        uids[uid, default: 0] += blockIsOverride ? 1 : 0
                    }
                    if inZone && stack == ["VCALENDAR", "VTIMEZONE"] {
                        timeZoneLines.append(line)
                        inZone = false
                        _ = stack.popLast()
                        continue
                    }
                    if stack.last == name { _ = stack.popLast() }
                } else if ICSSyntax.isBlock(stack) {
                    if let uid = ICSSyntax.value(line, "UID") { blockUID = String(decoding: uid, as: UTF8.self) }
                    if ICSSyntax.value(line, "RECURRENCE-ID") != nil { blockIsOverride = true }
                }
                if inZone { timeZoneLines.append(line) }
            }
            try lines.rewind()
        } catch let error as CalendarReadFailure {
            icalparser_free(parser)
            throw error
        } catch {
            icalparser_free(parser)
            throw CalendarReadFailure(reason: "\(error)")
        }
        notCalendar = !sawCalendar
        timeZoneLines.append(Array("END:VCALENDAR".utf8))
        var calendar: OpaquePointer?
        for line in timeZoneLines {
            guard let completed = ICSSyntax.add(line, to: parser) else { continue }
            if let earlier = calendar { icalcomponent_free(earlier) }
            calendar = completed
        }
        if calendar == nil { parser = ICSSyntax.renewed(parser) }
        zones = calendar ?? icalcomponent_new(ICAL_VCALENDAR_COMPONENT)
    }

    deinit {
        icalcomponent_free(zones)
        icalparser_free(parser)
    }

    /// The next task, overridden instance or problem, or nil at the end of the file.
    func next() throws(CalendarReadFailure) -> Item? {
        do {
            return try nextItem()
        } catch let error as CalendarReadFailure {
            throw error
        } catch {
            throw CalendarReadFailure(reason: "\(error)")
        }
    }

    private func nextItem() throws -> Item? {
        while let (line, number) = try lines.next() {
            guard let name = ICSSyntax.component(line, "BEGIN:") else {
                if let name = ICSSyntax.component(line, "END:"), stack.last == name { _ = stack.popLast() }
                continue
            }
            guard stack.count < CalendarLimits.outerNesting else {
                throw CalendarReadFailure(reason: "line \(number) nests components deeper than \(CalendarLimits.outerNesting) levels")
            }
            stack.append(name)
            guard ICSSyntax.isBlock(stack) else { continue }
            return try block(name, line: line, at: number)
        }
        return nil
    }

    /// One VEVENT or VTODO, from its BEGIN line to its END.
    private func block(_ name: String, line begin: [UInt8], at number: Int) throws -> Item {
        var depth = 1
        var count = 1
        var refusal: String?
        var uid: String?
        var component = ICSSyntax.add(begin, to: parser)
        while component == nil, let (line, _) = try lines.next() {
            count += 1
            if ICSSyntax.component(line, "BEGIN:") != nil { depth += 1 }
            if ICSSyntax.component(line, "END:") != nil { depth -= 1 }
            if depth == 1, uid == nil, let value = ICSSyntax.value(line, "UID") { uid = String(decoding: value, as: UTF8.self) }
            if refusal == nil {
                if depth > CalendarLimits.nesting {
                    refusal = "its components nest deeper than \(CalendarLimits.nesting) levels"
                } else if count > CalendarLimits.lines {
                    refusal = "it has more than \(CalendarLimits.lines) lines"
                }
                if refusal != nil { parser = ICSSyntax.renewed(parser) }
            }
            if refusal == nil { component = ICSSyntax.add(line, to: parser) }
            if depth == 0 {
                // libical ends a component at any END line; one closed by another name (the
                // calendar's END after a VEVENT cut short) is not whole.
                if ICSSyntax.component(line, "END:") != name, let whole = component {
                    icalcomponent_free(whole)
                    component = nil
                    refusal = nil
                }
                break
            }
        }
        _ = stack.popLast()
        guard let component else {
            if refusal == nil { parser = ICSSyntax.renewed(parser) }
            return .problem(
                ICSReader.Problem(
                    uid: uid, summary: nil, reason: refusal ?? "the \(name) that begins on line \(number) has no END:\(name)"))
        }
        defer { icalcomponent_free(component) }
        var reader = ComponentReader(component: component, calendar: zones, defaultZone: defaultZone, now: now)
        do {
            let parsed = try reader.read(source: source)
            guard let rid = parsed.recurrenceID else { return .task(parsed.task) }
            return .override(Override(uid: parsed.task.id, summary: parsed.task.title, recurrenceID: rid, override: parsed.override))
        } catch let problem {
            return .problem(problem)
        }
    }
}

/// The few things the stream reads from content lines itself, before libical sees them.
enum ICSSyntax {
    /// Whether the innermost component is a task or event this reader takes: at the top, or
    /// directly in a VCALENDAR.
    static func isBlock(_ stack: [String]) -> Bool {
        guard let last = stack.last, last == "VEVENT" || last == "VTODO" else { return false }
        return stack.count == 1 || (stack.count == 2 && stack[0] == "VCALENDAR")
    }

    /// The component a BEGIN: or END: line names, upper-cased.
    static func component(_ line: [UInt8], _ keyword: String) -> String? {
        let key = Array(keyword.utf8)
        guard line.count > key.count, line.count < 80, zip(line, key).allSatisfy({ ICSSyntax.upper($0) == $1 }) else { return nil }
        return String(decoding: line[key.count...].map(ICSSyntax.upper), as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// The value of a property line named `name` (with or without parameters).
    static func value(_ line: [UInt8], _ name: String) -> ArraySlice<UInt8>? {
        let key = Array(name.utf8)
        guard line.count > key.count, zip(line, key).allSatisfy({ ICSSyntax.upper($0) == $1 }),
            line[key.count] == UInt8(ascii: ":") || line[key.count] == UInt8(ascii: ";"),
            let colon = line[key.count...].firstIndex(of: UInt8(ascii: ":"))
        else { return nil }
        return line[(colon + 1)...]
    }

    static func upper(_ byte: UInt8) -> UInt8 { byte >= 0x61 && byte <= 0x7A ? byte - 0x20 : byte }

    /// A new parser for one whose component was abandoned half-way. Not `icalparser_clean`: it
    /// returns the partial component but keeps pointing at it, so that freeing both (the
    /// component, then the parser) frees it twice (the parser fuzz target's find).
    static func renewed(_ parser: OpaquePointer) -> OpaquePointer {
        icalparser_free(parser)
        return icalparser_new()
    }

    /// Gives libical one unfolded line; returns the component it completes, if any.
    static func add(_ line: [UInt8], to parser: OpaquePointer) -> OpaquePointer? {
        var text = line
        text.append(0)
        return text.withUnsafeMutableBufferPointer { buffer in
            buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: buffer.count) { icalparser_add_line(parser, $0) }
        }
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
        let wall = WallTime(
            year: Int(t.year), month: Int(t.month), day: Int(t.day), hour: Int(t.hour), minute: Int(t.minute),
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
        var uid: String?
        var summary: String?
        var t = TaskItem(id: "", kind: isEvent ? .event : .todo, title: "", created: now, modified: now, tz: defaultZone.identifier)
        t.source = source
        var zone: Zone?
        var start: WallTime?
        var due: WallTime?
        var end: WallTime?
        var rid: WallTime?
        var durationSeconds: Int?
        var categories: [String] = []
        var explicitCategory: String?
        var noStart = false
        var percent = 0
        var override = OccurrenceOverride()
        var exdates: [WallTime] = []
        var rdates: [WallTime] = []
        var problem: String?

        // Zone first: DTSTART's TZID is the item's tz, so every other time is read on its wall clock.
        if let p = icalcomponent_get_first_property(component, ICAL_DTSTART_PROPERTY)
            ?? icalcomponent_get_first_property(component, ICAL_DUE_PROPERTY)
        {
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
                    if kind == ICAL_COMPLETED_PROPERTY {
                        t.completedAt = instant
                    } else if kind == ICAL_CREATED_PROPERTY {
                        t.created = instant
                    } else {
                        t.modified = instant
                    }
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
                if let end {
                    override.end = end.text
                } else if let s = durationSeconds, let st = start {
                    override.end = st.adding(seconds: Int64(s)).text
                }
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
