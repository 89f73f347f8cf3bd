import CCairo
import Foundation
import PluginKit

/// A picture written as a PNG or PDF file with Cairo: charts and timetables that people would
/// rather look at than read. Written through a temporary file renamed into place, so a failure
/// leaves nothing half-written.
public enum Picture {
    public enum Format: String, Sendable, Codable {
        case png, pdf
    }

    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var description: String
    }

    /// The format a path asks for by its extension, or nil.
    public static func format(of path: String) -> Format? {
        Format(rawValue: (path as NSString).pathExtension.lowercased())
    }

    /// Where a picture goes: the path, the format its extension asks for, the parameter that
    /// named it, and whether an existing file may be replaced.
    public struct Target: Sendable {
        public let path: String
        public let format: Format
        public let param: String
        public let overwrite: Bool
    }

    /// What a drawing command checks before it reads anything: the format `path` asks for, that
    /// its folder exists, and that nothing has its name unless `overwrite`; -32602 naming
    /// `param` otherwise.
    public static func output(_ path: String, param: String = "path", overwrite: Bool) throws(RPCError) -> Target {
        guard let format = format(of: path) else { throw RPCError.invalidParam(param, "must end in .png or .pdf") }
        try FileOutput.checkTarget(path, param: param, overwrite: overwrite)
        return Target(path: path, format: format, param: param, overwrite: overwrite)
    }

    /// `write`, off the cooperative pool (Cairo's drawing and the file's writing block); a failure
    /// to write is -32602 naming the target's parameter.
    public static func written(
        to target: Target, width: Double, height: Double, title: String, draw: @escaping @Sendable (OpaquePointer, Int) -> Void
    ) async throws -> Int {
        try await runBlocking {
            do {
                return try write(to: target, width: width, height: height, title: title, draw: draw)
            } catch let failure as Failure {
                throw RPCError.invalidParam(target.param, "could not be written: \(failure.description)")
            }
        }
    }

    /// Draws `pages` pages of `width` × `height` (PDF points; PNG pixels, one page) into the
    /// target, through a 0600 temporary file moved into place (`FileOutput.place`); returns the
    /// file's size in bytes.
    @discardableResult
    public static func write(
        to target: Target, width: Double, height: Double, title: String, pages: Int = 1, draw: (OpaquePointer, Int) -> Void
    ) throws -> Int {
        let format = target.format
        let temporary = try FileOutput.temporaryFile(beside: target.path)
        let surface: OpaquePointer? =
            switch format {
            case .pdf: cairo_pdf_surface_create(temporary, width, height)
            case .png: cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
            }
        guard let surface else {
            unlink(temporary)
            throw Failure(description: "Cairo could not make a surface")
        }
        defer { cairo_surface_destroy(surface) }
        do {
            try check(cairo_surface_status(surface))
            if format == .pdf {
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, title)
                cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "assistantd")
            }
            let cr = cairo_create(surface)!
            defer { cairo_destroy(cr) }
            cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
            for page in 0..<(format == .png ? 1 : max(pages, 1)) {
                // White paper (a PNG is transparent otherwise).
                cairo_set_source_rgb(cr, 1, 1, 1)
                cairo_paint(cr)
                cairo_set_source_rgb(cr, 0, 0, 0)
                draw(cr, page)
                if format == .pdf { cairo_show_page(cr) }
            }
            if format == .png { try check(cairo_surface_write_to_png(surface, temporary)) }
            cairo_surface_finish(surface)
            try check(cairo_surface_status(surface))
        } catch {
            unlink(temporary)
            throw error
        }
        try FileOutput.place(temporary, at: target.path, param: target.param, overwrite: target.overwrite)
        return (try? FileManager.default.attributesOfItem(atPath: target.path)[.size] as? Int) ?? 0
    }

    static func check(_ status: cairo_status_t) throws {
        guard status == CAIRO_STATUS_SUCCESS else { throw Failure(description: String(cString: cairo_status_to_string(status))) }
    }
}

/// A colour as Cairo takes it.
public struct Colour: Sendable, Equatable {
    public var red, green, blue: Double
    public init(_ red: Double, _ green: Double, _ blue: Double) { (self.red, self.green, self.blue) = (red, green, blue) }

    public static let blue = Colour(0.16, 0.42, 0.75)
    public static let orange = Colour(0.90, 0.49, 0.13)
    public static let green = Colour(0.20, 0.60, 0.30)
    public static let red = Colour(0.80, 0.15, 0.15)
    public static let grey = Colour(0.55, 0.55, 0.55)

    func set(_ cr: OpaquePointer) { cairo_set_source_rgb(cr, red, green, blue) }
}

/// Text and lines, shared by the pictures.
enum Pen {
    static func line(_ cr: OpaquePointer, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cairo_move_to(cr, x1, y1)
        cairo_line_to(cr, x2, y2)
        cairo_stroke(cr)
    }

    static func width(_ cr: OpaquePointer, _ text: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, text, &extents)
        return extents.x_advance
    }

    /// `text` at (x, y), shortened with "…" to `maxWidth`; `align` 0 left, 0.5 centre, 1 right.
    static func text(_ cr: OpaquePointer, _ text: String, x: Double, y: Double, align: Double = 0, maxWidth: Double = .infinity) {
        var shown = text
        while !shown.isEmpty, width(cr, shown) > maxWidth {
            shown = String(shown.dropLast(shown.hasSuffix("…") ? 2 : 1)) + "…"
            if shown == "…" { break }
        }
        cairo_move_to(cr, x - align * width(cr, shown), y)
        cairo_show_text(cr, shown)
    }

    /// A step for an axis up to `top` with about five ticks: 1, 2 or 5 times a power of ten.
    static func step(_ top: Double) -> Double {
        guard top > 0 else { return 1 }
        let rough = top / 5
        let power = pow(10, floor(log10(rough)))
        return [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? rough
    }

    /// A chart's frame, shared by the charts: the title (and a note under it), then a value axis
    /// from 0 to a round top above `top` with about five ticks and grey rules. Returns the plot's
    /// rectangle (room left below it for the labels along the bottom) and the axis's top.
    static func valueAxis(
        _ cr: OpaquePointer, title: String, note: String?, unit: String, top: Double, x: Double, y: Double, width: Double, height: Double
    ) -> (plot: (x: Double, y: Double, width: Double, height: Double), axisTop: Double) {
        cairo_set_source_rgb(cr, 0, 0, 0)
        cairo_set_font_size(cr, 16)
        text(cr, title, x: x, y: y + 18, maxWidth: width)
        let step = self.step(top)
        let axisTop = max(step, (top / step).rounded(.up) * step)
        cairo_set_font_size(cr, 10)
        if let note { text(cr, note, x: x, y: y + 34, maxWidth: width) }
        let labelWidth = self.width(cr, number(axisTop) + " " + unit) + 6
        let header = note == nil ? 36.0 : 50.0
        let plot = (x: x + labelWidth, y: y + header, width: width - labelWidth - 4, height: height - header - 34)
        cairo_set_line_width(cr, 0.5)
        var tick = 0.0
        while tick <= axisTop + step / 2 {
            let ty = plot.y + plot.height - tick / axisTop * plot.height
            Colour.grey.set(cr)
            line(cr, plot.x, ty, plot.x + plot.width, ty)
            cairo_set_source_rgb(cr, 0, 0, 0)
            text(cr, number(tick) + (tick == 0 ? "" : " " + unit), x: plot.x - 4, y: ty + 3.5, align: 1)
            tick += step
        }
        return (plot, axisTop)
    }

    static func number(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.1f", value)
    }
}
