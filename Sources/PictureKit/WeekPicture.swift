import CCairo
import Foundation

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
        for entry in entries {
            guard let column = days.firstIndex(of: entry.weekday) else { continue }
            let top = grid.y + Double(max(entry.start - hours.lowerBound * 60, 0)) * perMinute
            let bottom = grid.y + Double(min(entry.end, hours.upperBound * 60) - hours.lowerBound * 60) * perMinute
            let bx = grid.x + Double(column) * columnWidth + 2
            let boxWidth = columnWidth - 4
            cairo_set_source_rgb(cr, 0.85, 0.91, 0.98)
            cairo_rectangle(cr, bx, top + 1, boxWidth, max(bottom - top - 2, 12))
            cairo_fill(cr)
            Colour.blue.set(cr)
            cairo_rectangle(cr, bx, top + 1, boxWidth, max(bottom - top - 2, 12))
            cairo_stroke(cr)
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
