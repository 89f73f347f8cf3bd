import CICal
import Crypto
import Foundation

/// A read-only calendar feed (a timetable, exam dates) as an iCalendar file, written with libical
/// (its escaping and folding). Times are UTC instants, so any calendar reads them without a
/// VTIMEZONE; an all-day item is a DATE.
public struct CalendarFile: Sendable {
    public struct Event: Sendable, Equatable {
        public enum When: Sendable, Equatable {
            case timed(start: Date, end: Date?)
            case allDay(DateOnly)
        }

        /// Stable across exports: the same class on the same day is the same event everywhere.
        public var uid: String
        public var when: When
        public var summary: String
        public var location: String?
        public var description: String?
        public var category: String?
        public var url: String?

        public init(
            uid: String, when: When, summary: String, location: String? = nil, description: String? = nil, category: String? = nil, url: String? = nil
        ) {
            self.uid = uid
            self.when = when
            self.summary = summary
            self.location = location
            self.description = description
            self.category = category
            self.url = url
        }
    }

    public var productID: String
    public var events: [Event]

    public init(productID: String, events: [Event] = []) {
        self.productID = productID
        self.events = events
    }

    /// A short stable id from the parts that make an event itself (hashed: the parts may hold
    /// names and rooms, which a UID should not spell out).
    public static func uid(_ plugin: String, _ parts: [String]) -> String {
        let digest = SHA256.hash(data: Data(parts.joined(separator: "|").utf8)).prefix(8).map { String(format: "%02x", $0) }.joined()
        return "\(plugin)-\(digest)@assistantd"
    }

    public func text(stamp: Date) -> String {
        let cal = icalcomponent_new(ICAL_VCALENDAR_COMPONENT)!
        defer { icalcomponent_free(cal) }
        icalcomponent_add_property(cal, icalproperty_new_version("2.0"))
        icalcomponent_add_property(cal, icalproperty_new_prodid(productID))
        let utc = icaltimezone_get_utc_timezone()
        func time(_ date: Date) -> icaltimetype { icaltime_from_timet_with_zone(time_t(date.timeIntervalSince1970), 0, utc) }
        for event in events {
            let c = icalcomponent_new(ICAL_VEVENT_COMPONENT)!
            icalcomponent_add_property(c, icalproperty_new_uid(event.uid))
            icalcomponent_add_property(c, icalproperty_new_dtstamp(time(stamp)))
            switch event.when {
            case .timed(let start, let end):
                icalcomponent_add_property(c, icalproperty_new_dtstart(time(start)))
                if let end { icalcomponent_add_property(c, icalproperty_new_dtend(time(end))) }
            case .allDay(let day):
                var t = icaltime_null_time()
                t.year = Int32(day.year)
                t.month = Int32(day.month)
                t.day = Int32(day.day)
                t.is_date = 1
                icalcomponent_add_property(c, icalproperty_new_dtstart(t))
            }
            icalcomponent_add_property(c, icalproperty_new_summary(event.summary))
            if let location = event.location { icalcomponent_add_property(c, icalproperty_new_location(location)) }
            if let description = event.description, !description.isEmpty { icalcomponent_add_property(c, icalproperty_new_description(description)) }
            if let category = event.category { icalcomponent_add_property(c, icalproperty_new_categories(category)) }
            if let url = event.url { icalcomponent_add_property(c, icalproperty_new_url(url)) }
            icalcomponent_add_component(cal, c)
        }
        guard let text = icalcomponent_as_ical_string_r(cal) else { return "" }
        defer { free(text) }
        return String(cString: text)
    }
}

/// What an `export.ics` command answers: the file written and how many events it holds.
public struct CalendarWritten: ResultObject, CallResult {
    public var path: String
    public var events: Int

    public static let members = ResultMembers<Self>(.field("path", \.path), .field("events", \.events))

    public init(path: String, events: Int) {
        self.path = path
        self.events = events
    }
}
