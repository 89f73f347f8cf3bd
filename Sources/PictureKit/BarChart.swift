import CCairo
import Foundation

/// Bars per category, one bar per series side by side (hours by month; night and IFR by month).
public struct BarChart: Sendable {
    public struct Series: Sendable {
        public var name: String
        public var colour: Colour
        /// One value per category.
        public var values: [Double]

        public init(_ name: String, _ colour: Colour, _ values: [Double]) { (self.name, self.colour, self.values) = (name, colour, values) }
    }

    public var title: String
    /// A line under the title (the totals).
    public var note: String?
    public var unit: String
    public var categories: [String]
    public var series: [Series]

    public init(title: String, note: String? = nil, unit: String, categories: [String], series: [Series]) {
        (self.title, self.note, self.unit, self.categories, self.series) = (title, note, unit, categories, series)
    }

    /// Draws the chart in the rectangle: title, axis with ticks, bars, category labels (every
    /// n-th when there are many), and a legend when there is more than one series.
    public func draw(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        cairo_set_source_rgb(cr, 0, 0, 0)
        let (plot, axisTop) = Pen.valueAxis(
            cr, title: title, note: note, unit: unit, top: series.flatMap(\.values).max() ?? 0, x: x, y: y, width: width, height: height)
        guard !categories.isEmpty else {
            Pen.text(cr, "nothing in this period", x: plot.x + plot.width / 2, y: plot.y + plot.height / 2, align: 0.5)
            return
        }
        let slot = plot.width / Double(categories.count)
        let barWidth = slot * 0.8 / Double(max(series.count, 1))
        for (index, category) in categories.enumerated() {
            let slotX = plot.x + Double(index) * slot
            for (s, one) in series.enumerated() where index < one.values.count {
                let barHeight = one.values[index] / axisTop * plot.height
                one.colour.set(cr)
                cairo_rectangle(cr, slotX + slot * 0.1 + Double(s) * barWidth, plot.y + plot.height - barHeight, barWidth, barHeight)
                cairo_fill(cr)
            }
            // Labels for every n-th category so they never overlap.
            cairo_set_source_rgb(cr, 0, 0, 0)
            let every = max(1, Int((Pen.width(cr, categories.max { $0.count < $1.count } ?? "") + 8) / slot) + 1)
            if index % every == 0 {
                Pen.text(cr, category, x: slotX + slot / 2, y: plot.y + plot.height + 14, align: 0.5, maxWidth: slot * Double(every) - 4)
            }
        }
        cairo_set_source_rgb(cr, 0, 0, 0)
        Pen.line(cr, plot.x, plot.y + plot.height, plot.x + plot.width, plot.y + plot.height)
        if series.count > 1 {
            var legendX = plot.x
            for one in series {
                one.colour.set(cr)
                cairo_rectangle(cr, legendX, y + height - 12, 10, 10)
                cairo_fill(cr)
                cairo_set_source_rgb(cr, 0, 0, 0)
                Pen.text(cr, one.name, x: legendX + 14, y: y + height - 3)
                legendX += Pen.width(cr, one.name) + 34
            }
        }
    }
}

/// Lines over time (a printer's temperatures): each series its points, the time along the
/// bottom in minutes before the end.
public struct LineChart: Sendable {
    public struct Series: Sendable {
        public var name: String
        public var colour: Colour
        public var dashed: Bool
        /// (seconds since the start, value), in time order.
        public var points: [(Double, Double)]

        public init(_ name: String, _ colour: Colour, dashed: Bool = false, _ points: [(Double, Double)]) {
            (self.name, self.colour, self.dashed, self.points) = (name, colour, dashed, points)
        }
    }

    public var title: String
    public var unit: String
    /// The span shown, in seconds.
    public var span: Double
    public var series: [Series]

    public init(title: String, unit: String, span: Double, series: [Series]) {
        (self.title, self.unit, self.span, self.series) = (title, unit, span, series)
    }

    public func draw(_ cr: OpaquePointer, x: Double, y: Double, width: Double, height: Double) {
        cairo_set_source_rgb(cr, 0, 0, 0)
        let (plot, axisTop) = Pen.valueAxis(
            cr, title: title, note: nil, unit: unit, top: series.flatMap { $0.points.map(\.1) }.max() ?? 0, x: x, y: y, width: width,
            height: height)
        let minutes = span / 60
        let minuteStep = Pen.step(minutes)
        var mark = 0.0
        while mark <= minutes + minuteStep / 2 {
            let mx = plot.x + plot.width - mark / minutes * plot.width
            Pen.text(cr, mark == 0 ? "now" : "-\(Pen.number(mark)) min", x: mx, y: plot.y + plot.height + 14, align: 0.5)
            mark += minuteStep
        }
        cairo_set_line_width(cr, 1.5)
        var legendX = plot.x
        for one in series {
            one.colour.set(cr)
            var dashes: [Double] = [5, 3]
            cairo_set_dash(cr, &dashes, one.dashed ? 2 : 0, 0)
            for (index, point) in one.points.enumerated() {
                let px = plot.x + point.0 / span * plot.width
                let py = plot.y + plot.height - point.1 / axisTop * plot.height
                if index == 0 { cairo_move_to(cr, px, py) } else { cairo_line_to(cr, px, py) }
            }
            cairo_stroke(cr)
            cairo_set_dash(cr, &dashes, 0, 0)
            one.colour.set(cr)
            cairo_rectangle(cr, legendX, y + height - 12, 10, 10)
            cairo_fill(cr)
            cairo_set_source_rgb(cr, 0, 0, 0)
            Pen.text(cr, one.name, x: legendX + 14, y: y + height - 3)
            legendX += Pen.width(cr, one.name) + 34
        }
        cairo_set_line_width(cr, 0.5)
    }
}
