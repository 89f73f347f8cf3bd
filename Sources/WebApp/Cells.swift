import Foundation
import HostCore

/// A value of a view as a page shows it, in the page's language and the daemon's zone: the same
/// formats the terminal's views declare (`ResultView.Format`), drawn for a page instead.
struct Cells {
    let pages: Pages
    let language: Language
    let now: Date

    func text(_ value: JSONValue, _ format: ResultView.Format) -> String {
        switch (format, value) {
        case (_, .null): return ""
        case (.when, .string(let text)):
            if text.count == 10, let day = ISO8601.date(text + "T12:00:00Z") { return dayText(day) }
            guard let instant = ISO8601.date(text) ?? wallTime(text) else { return text }
            return dayText(instant) + " " + pages.clock(instant, language)
        case (.time, .string(let text)):
            if text.count == 10 { return pages.catalogue.text("today.all_day", language) }
            return (ISO8601.date(text) ?? wallTime(text)).map { pages.clock($0, language) } ?? text
        case (.duration, _):
            guard let minutes = value.intValue else { return "" }
            return "\(minutes / 60):" + String(format: "%02d", minutes % 60)
        case (.seconds, _):
            guard let seconds = value.intValue else { return "" }
            return seconds < 60
                ? "\(seconds) s" : seconds < 3600 ? "\(seconds / 60) min" : String(format: "%d h %02d min", seconds / 3600, seconds % 3600 / 60)
        case (.bar, _):
            guard let percent = value.doubleValue else { return "" }
            return String(format: "%.0f %%", percent)
        case (.flag, .bool(let flag)):
            return pages.catalogue.text(flag ? "value.yes" : "value.no", language)
        case (.priority, _):
            return value.intValue.map { $0 == 0 ? "" : String($0) } ?? ""
        case (.count, .array(let items)):
            return String(items.count)
        case (.rule, .string(let rule)):
            return RuleSpeech.spoken(rule) ?? rule
        case (.shortID, .string(let id)):
            return String(id.prefix(6))
        case (.temperatures, .object(let heaters)):
            return heaters.sorted { $0.key < $1.key }.compactMap { name, heater -> String? in
                guard let actual = heater["actual"]?.doubleValue else { return nil }
                let target = heater["target"]?.doubleValue.map { String(format: "/%.0f", $0) } ?? ""
                return "\(name) \(String(format: "%.1f", actual))\(target) °C"
            }.joined(separator: ", ")
        case (_, .array(let items)):
            return items.map { text($0, .text) }.joined(separator: ", ")
        case (_, .string(let text)):
            return text
        case (_, .bool(let flag)):
            return pages.catalogue.text(flag ? "value.yes" : "value.no", language)
        default:
            return value.encodedString()
        }
    }

    /// A column's header in the page's language: the catalogue's word for it, else as declared.
    /// A view's label (a field's, a detail's) in the page's language, where the catalogue has it.
    func label(_ declared: String) -> String {
        let key = "label." + declared
        let word = pages.catalogue.text(key, language)
        return word == key ? declared : word
    }

    func header(_ declared: String) -> String {
        let key = "column." + declared
        let word = pages.catalogue.text(key, language)
        return word == key ? declared.capitalized : word
    }

    /// "today", "tomorrow", else the day as the language writes it.
    func dayText(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = pages.zone
        let days = calendar.dateComponents([.day], from: calendar.startOfDay(for: now), to: calendar.startOfDay(for: date)).day ?? 0
        if days == 0 { return pages.catalogue.text("day.today", language) }
        if days == 1 { return pages.catalogue.text("day.tomorrow", language) }
        return pages.shortDay(date, language)
    }

    /// `2026-12-01T09:00` (a wall time, already the zone's).
    func wallTime(_ text: String) -> Date? {
        guard text.count == 16 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = pages.zone
        let parts = text.split(whereSeparator: { "-T:".contains($0) }).compactMap { Int($0) }
        guard parts.count == 5 else { return nil }
        return calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2], hour: parts[3], minute: parts[4]))
    }
}
