import CCairo
import Foundation
import PluginKit

/// A week's timetable as it hangs on a wall: a column per day, hours down the side, each class a
/// box with its title, place and time.
public struct WeekPicture: Sendable {
    public struct Entry: Sendable {
        /// 1 = Monday.
        public var weekday: Int
        /// Minutes since midnight.
        public var start: Int
        public var end: Int
        public var title: String
        public var detail: String

        public init(weekday: Int, start: Int, end: Int, title: String, detail: String) {
            (self.weekday, self.start, self.end, self.title, self.detail) = (weekday, start, end, title, detail)
        }
    }

    public var title: String
    /// The seven day headings, Monday first ("Mon 30 Nov", or "Monday").
    public var dayNames: [String]
    public var entries: [Entry]

    public init(title: String, dayNames: [String], entries: [Entry]) {
        (self.title, self.dayNames, self.entries) = (title, dayNames, entries)
    }

    /// A dated week: each heading "Mon 30.11." from the day and month of that weekday (0 = Monday).
    public init(title: String, dateOfDay: (Int) -> (day: Int, month: Int), entries: [Entry]) {
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        self.init(title: title, dayNames: (0..<7).map { "\(names[$0]) \(dateOfDay($0).day).\(dateOfDay($0).month)." }, entries: entries)
    }

    /// The days shown: Monday to Friday, and the weekend when something falls on it.
    public var days: [Int] { Array(1...5) + [6, 7].filter { day in entries.contains { $0.weekday == day } } }

    /// The hours shown: 7 to 19 at least, wider when a class starts earlier or ends later.
    public var hours: ClosedRange<Int> {
        let first = min(7, (entries.map(\.start).min() ?? 7 * 60) / 60)
        let last = max(19, ((entries.map(\.end).max() ?? 19 * 60) + 59) / 60)
        return first...min(last, 24)
    }

    public func draw(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_font_size(cr, 16)
        Pen.text(cr, title, x: x, y: y + 18, maxWidth: width)
        let days = self.days
        let hours = self.hours
        let gutter = 36.0
        let grid = (x: x + gutter, y: y + 48, width: width - gutter, height: height - 52)
        let columnWidth = grid.width / Double(days.count)
        let perMinute = grid.height / Double((hours.upperBound - hours.lowerBound) * 60)
        cairo_set_font_size(cr, 10)
        cairo_set_line_width(cr, 0.5)
        for (index, day) in days.enumerated() {
            let cx = grid.x + Double(index) * columnWidth
            cairo_set_source_rgb(cr, 0, 0, 0)
            Pen.text(cr, dayNames[day - 1], x: cx + columnWidth / 2, y: grid.y - 6, align: 0.5, maxWidth: columnWidth - 4)
            Colour.grey.set(cr)
            Pen.line(cr, cx, grid.y, cx, grid.y + grid.height)
        }
        Pen.line(cr, grid.x + grid.width, grid.y, grid.x + grid.width, grid.y + grid.height)
        for hour in hours {
            let hy = grid.y + Double((hour - hours.lowerBound) * 60) * perMinute
            Colour.grey.set(cr)
            Pen.line(cr, grid.x, hy, grid.x + grid.width, hy)
            cairo_set_source_rgb(cr, 0, 0, 0)
            if hour < hours.upperBound { Pen.text(cr, String(format: "%02d:00", hour), x: x, y: hy + 10) }
        }
        // Classes that overlap on a day share its column side by side, each in a lane.
        var lanes: [Int: [Int]] = [:]  // entry index → lane, lanes per day
        var laneOf = [Int](repeating: 0, count: entries.count)
        var lanesOfDay: [Int: Int] = [:]
        for index in entries.indices.sorted(by: { (entries[$0].weekday, entries[$0].start) < (entries[$1].weekday, entries[$1].start) }) {
            let entry = entries[index]
            var ends = lanes[entry.weekday] ?? []
            let lane = ends.firstIndex { $0 <= entry.start } ?? ends.count
            if lane == ends.count { ends.append(entry.end) } else { ends[lane] = entry.end }
            lanes[entry.weekday] = ends
            laneOf[index] = lane
            lanesOfDay[entry.weekday] = ends.count
        }
        for (index, entry) in entries.enumerated() {
            guard let column = days.firstIndex(of: entry.weekday) else { continue }
            let top = grid.y + Double(max(entry.start - hours.lowerBound * 60, 0)) * perMinute
            let bottom = grid.y + Double(min(entry.end, hours.upperBound * 60) - hours.lowerBound * 60) * perMinute
            let laneWidth = columnWidth / Double(lanesOfDay[entry.weekday] ?? 1)
            let bx = grid.x + Double(column) * columnWidth + Double(laneOf[index]) * laneWidth + 2
            let boxWidth = laneWidth - 4
            cairo_set_source_rgb(cr, 0.85, 0.91, 0.98)
            cairo_rectangle(cr, bx, top + 1, boxWidth, max(bottom - top - 2, 12))
            cairo_fill(cr)
            Colour.blue.set(cr)
            cairo_set_line_width(cr, 2)
            cairo_rectangle(cr, bx, top + 1, boxWidth, max(bottom - top - 2, 12))
            cairo_stroke(cr)
            cairo_set_line_width(cr, 0.5)
            cairo_set_source_rgb(cr, 0, 0, 0)
            cairo_set_font_size(cr, 10)
            Pen.text(cr, entry.title, x: bx + 3, y: top + 12, maxWidth: boxWidth - 6)
            cairo_set_font_size(cr, 8)
            let time = String(format: "%02d:%02d–%02d:%02d", entry.start / 60, entry.start % 60, entry.end / 60, entry.end % 60)
            if bottom - top > 24 { Pen.text(cr, entry.detail, x: bx + 3, y: top + 23, maxWidth: boxWidth - 6) }
            if bottom - top > 34 { Pen.text(cr, time, x: bx + 3, y: top + 33, maxWidth: boxWidth - 6) }
        }
    }
}

extension WeekPicture {
    /// Writes the week as A4 landscape (PDF points), or as a PNG of the same proportions, off the
    /// cooperative pool; a failure is -32602 naming `path`.
    public func written(to target: Picture.Target) async throws -> Int {
        let (width, height) = target.format == .pdf ? (842.0, 595.0) : (1400.0, 990.0)
        let margin = target.format == .pdf ? 24.0 : 40.0
        return try await Picture.written(to: target, width: width, height: height, title: title) { cr, _ in
            draw(cr, x: margin, y: margin, width: width - 2 * margin, height: height - 2 * margin)
        }
    }

    /// Minutes since midnight of `HH:MM` (the timetables' clock times), or nil.
    public static func minutes(_ clock: String?) -> Int? {
        guard let parts = clock?.split(separator: ":").compactMap({ Int($0) }), parts.count >= 2, (0..<24).contains(parts[0]),
            (0..<60).contains(parts[1])
        else { return nil }
        return parts[0] * 60 + parts[1]
    }
}

/// What a `timetable.pdf` command answers (Stag's and KOS's): the file written and what is on it.
public struct WeekPictureWritten: ResultObject, CallResult {
    public var path: String
    public var format: Picture.Format
    public var bytes: Int
    public var week: String
    public var classes: Int

    public static let members = ResultMembers<Self>(
        .field("path", \.path), .field("format", \.format, .enumeration(["pdf", "png"])), .field("bytes", \.bytes),
        .field("week", \.week, .date, "its Monday"),
        .field("classes", \.classes))

    public init(path: String, format: Picture.Format, bytes: Int, week: DateOnly, classes: Int) {
        self.path = path
        self.format = format
        self.bytes = bytes
        self.week = week.description
        self.classes = classes
    }
}
