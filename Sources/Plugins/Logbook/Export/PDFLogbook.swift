import CCairo
import Foundation
import PictureKit
import PluginKit

/// The EASA logbook layout (AMC1 FCL.050): landscape A4 pages with the 12 column groups, and on
/// every page the totals of the page, brought forward from the previous pages, and to date, the
/// pilot's name and a signature line. Drawn with Cairo's PDF surface.
struct PDFLogbook {
    var pilotName: String
    var rowsPerPage: Int
    var aircraft: [String: Aircraft]
    /// Chosen records rather than the whole logbook or a period: the totals say so.
    var selected = false

    struct Column {
        var group: Int
        var title: String
        var width: Double
        var numeric: Bool
        var value: (Entry) -> String
        var total: ((ColumnTotals) -> String)?
    }

    static let pageWidth = 842.0, pageHeight = 595.0, margin = 20.0

    func columns() -> [Column] {
        func hm(_ m: Int) -> String { m == 0 ? "" : Minutes.hhmm(m) }
        func n(_ v: Int) -> String { v == 0 ? "" : String(v) }
        func flight(_ f: @escaping (Entry) -> String) -> (Entry) -> String { { $0.kind == .flight ? f($0) : "" } }
        func time(_ c: TimeColumn) -> (Entry) -> String { flight { hm($0[c]) } }
        func sum(_ key: String, minutes: Bool = true) -> (ColumnTotals) -> String { { minutes ? Minutes.hhmm($0[key]) : String($0[key]) } }
        let date: (Entry) -> String = { e in
            let c = e.date.components
            return String(format: "%02d/%02d/%02d", c.day, c.month, c.year % 100)
        }
        return [
            Column(group: 1, title: "DATE", width: 38, numeric: false, value: flight(date)),
            Column(group: 2, title: "PLACE", width: 30, numeric: false, value: flight { $0.dep ?? "" }),
            Column(group: 2, title: "TIME", width: 26, numeric: false, value: flight { $0.out?.clock ?? "" }),
            Column(group: 3, title: "PLACE", width: 30, numeric: false, value: flight { $0.arr ?? "" }),
            Column(group: 3, title: "TIME", width: 26, numeric: false, value: flight { $0.inAt?.clock ?? "" }),
            Column(
                group: 4, title: "MODEL", width: 46, numeric: false,
                value: flight { e in
                    e.registration.flatMap { aircraft[$0] }.map { $0.typeDesignator ?? $0.displayModel } ?? ""
                }),
            Column(group: 4, title: "REG", width: 40, numeric: false, value: flight { $0.registration ?? "" }),
            Column(group: 5, title: "SE", width: 26, numeric: true, value: time(.spSE), total: sum("sp_se_min")),
            Column(group: 5, title: "ME", width: 26, numeric: true, value: time(.spME), total: sum("sp_me_min")),
            Column(group: 5, title: "MP", width: 26, numeric: true, value: time(.mp), total: sum("mp_min")),
            Column(group: 6, title: "TOTAL", width: 30, numeric: true, value: time(.total), total: sum("total_min")),
            Column(group: 7, title: "NAME PIC", width: 56, numeric: false, value: flight { $0.picName ?? "" }),
            Column(
                group: 8, title: "DAY", width: 20, numeric: true, value: flight { n($0[.landingsDay]) }, total: sum("landings_day", minutes: false)),
            Column(
                group: 8, title: "NIGHT", width: 20, numeric: true, value: flight { n($0[.landingsNight]) },
                total: sum("landings_night", minutes: false)),
            Column(group: 9, title: "NIGHT", width: 26, numeric: true, value: time(.night), total: sum("night_min")),
            Column(group: 9, title: "IFR", width: 26, numeric: true, value: time(.ifr), total: sum("ifr_min")),
            Column(
                group: 10, title: "PIC", width: 26, numeric: true, value: flight { hm($0[.pic] + $0[.spic] + $0[.picus]) },
                total: { Minutes.hhmm($0["pic_min"] + $0["spic_min"] + $0["picus_min"]) }),
            Column(group: 10, title: "CO-PIL", width: 26, numeric: true, value: time(.copilot), total: sum("copilot_min")),
            Column(group: 10, title: "DUAL", width: 26, numeric: true, value: time(.dual), total: sum("dual_min")),
            Column(
                group: 10, title: "INSTR", width: 26, numeric: true, value: flight { hm($0[.instructor] + $0[.examiner]) },
                total: { Minutes.hhmm($0["instructor_min"] + $0["examiner_min"]) }),
            Column(group: 11, title: "DATE", width: 38, numeric: false, value: { $0.kind == .fstd ? date($0) : "" }),
            Column(group: 11, title: "TYPE", width: 54, numeric: false, value: { $0.kind == .fstd ? ($0.fstdType ?? "") : "" }),
            Column(group: 11, title: "TOTAL", width: 28, numeric: true, value: { $0.kind == .fstd ? hm($0[.total]) : "" }, total: sum("fstd_min")),
            Column(group: 12, title: "REMARKS AND ENDORSEMENTS", width: 0, numeric: false, value: { $0.remarks }),
        ]
    }

    static let groupTitles = [
        1: "1 DATE", 2: "2 DEPARTURE", 3: "3 ARRIVAL", 4: "4 AIRCRAFT", 5: "5 SP SE / ME · MP", 6: "6 TOTAL",
        7: "7 PIC", 8: "8 LANDINGS", 9: "9 CONDITION", 10: "10 PILOT FUNCTION TIME", 11: "11 FSTD SESSION", 12: "12 REMARKS",
    ]

    /// Writes the PDF to `path` (through a temporary file, so a failure leaves nothing half-written).
    func write(entries: [Entry], starting: ColumnTotals, to path: String, overwrite: Bool, appendix: AttachmentAppendix? = nil) throws -> Int {
        var cols = columns()
        let used = cols.reduce(0) { $0 + $1.width }
        cols[cols.count - 1].width = Self.pageWidth - 2 * Self.margin - used
        let pages = TotalsReport.pages(entries: entries, pageSize: rowsPerPage, starting: starting)

        let temporary = try FileOutput.temporaryFile(beside: path)
        guard let surface = cairo_pdf_surface_create(temporary, Self.pageWidth, Self.pageHeight) else {
            unlink(temporary)
            throw LogbookError.pdf("no surface")
        }
        defer { cairo_surface_destroy(surface) }
        guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
            unlink(temporary)
            throw LogbookError.file(path, String(cString: cairo_status_to_string(cairo_surface_status(surface))))
        }
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_TITLE, "Pilot logbook – \(pilotName)")
        cairo_pdf_surface_set_metadata(surface, CAIRO_PDF_METADATA_CREATOR, "assistantd logbook")
        let cr = cairo_create(surface)!
        defer { cairo_destroy(cr) }
        cairo_select_font_face(cr, "DejaVu Sans", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL)
        cairo_set_line_width(cr, 0.4)

        for (index, page) in pages.enumerated() {
            drawPage(cr, columns: cols, page: page, number: index + 1, of: pages.count)
            cairo_show_page(cr)
        }
        // The charts of `logbook.chart` on a page of their own, after the logbook's pages.
        if entries.contains(where: { $0.kind == .flight }) {
            let half = (Self.pageWidth - 2 * Self.margin) / 2
            let chartHeight = (Self.pageHeight - 2 * Self.margin) / 2
            LogbookChart.hoursByMonth.chart(entries).draw(
                cr, x: Self.margin, y: Self.margin, width: Self.pageWidth - 2 * Self.margin, height: chartHeight)
            LogbookChart.hoursByAircraft.chart(entries).draw(cr, x: Self.margin, y: Self.margin + chartHeight, width: half - 10, height: chartHeight)
            LogbookChart.nightIFR.chart(entries).draw(
                cr, x: Self.margin + half + 10, y: Self.margin + chartHeight, width: half - 10, height: chartHeight)
            cairo_show_page(cr)
        }
        do {
            try appendix?.draw(cr, width: Self.pageWidth, height: Self.pageHeight, margin: Self.margin)
        } catch {
            cairo_surface_finish(surface)
            try? FileManager.default.removeItem(atPath: temporary)
            throw error
        }
        cairo_surface_finish(surface)
        let status = cairo_surface_status(surface)
        guard status == CAIRO_STATUS_SUCCESS else {
            try? FileManager.default.removeItem(atPath: temporary)
            throw LogbookError.pdf(String(cString: cairo_status_to_string(status)))
        }
        try FileOutput.place(temporary, at: path, param: LogbookParams.importPath.name, overwrite: overwrite)
        return pages.count
    }

    private func drawPage(
        _ cr: OpaquePointer, columns cols: [Column],
        page: (entries: ArraySlice<Entry>, thisPage: ColumnTotals, broughtForward: ColumnTotals, total: ColumnTotals), number: Int, of count: Int
    ) {
        let m = Self.margin
        let width = Self.pageWidth - 2 * m
        cairo_set_font_size(cr, 11)
        text(cr, "PILOT LOGBOOK — \(pilotName)", x: m, y: m + 10)
        text(cr, "Page \(number) of \(count)", x: m + width - 80, y: m + 10)

        let top = m + 22
        let groupRow = 12.0
        let titleRow = 11.0
        let rowHeight = 23.0
        let bodyTop = top + groupRow + titleRow
        let footerTop = bodyTop + Double(rowsPerPage) * rowHeight
        let footerRow = 14.0
        let bottom = footerTop + 3 * footerRow

        // Group headers (1–12) and sub-column titles.
        var x = m
        var groupStart = m
        cairo_set_font_size(cr, 6)
        let footerLabelRight = m + cols.prefix { $0.group < 5 }.reduce(0) { $0 + $1.width }
        for (i, c) in cols.enumerated() {
            let last = i == cols.count - 1 || cols[i + 1].group != c.group
            if last {
                let gw = x + c.width - groupStart
                line(cr, groupStart, top, groupStart + gw, top)
                fitted(cr, Self.groupTitles[c.group] ?? "", x: groupStart + 1.5, y: top + 8.5, width: gw - 3)
                // The footer's labels span groups 1–4, so their rules stop above the footer.
                line(cr, groupStart + gw, top, groupStart + gw, groupStart + gw < footerLabelRight - 0.5 ? footerTop : bottom)
                groupStart = x + c.width
            } else {
                line(cr, x + c.width, top + groupRow, x + c.width, x + c.width < footerLabelRight - 0.5 ? footerTop : bottom)
            }
            fitted(cr, c.title, x: x + 1.5, y: top + groupRow + 8, width: c.width - 3)
            x += c.width
        }
        line(cr, m, top, m, bottom)
        line(cr, m, top + groupRow, m + width, top + groupRow)
        line(cr, m, bodyTop, m + width, bodyTop)

        // Entries.
        cairo_set_font_size(cr, 7)
        for (row, e) in page.entries.enumerated() {
            let y = bodyTop + Double(row) * rowHeight
            var cx = m
            for c in cols {
                let v = c.value(e)
                if !v.isEmpty {
                    if c.numeric {
                        rightAligned(cr, v, right: cx + c.width - 1.5, y: y + 14)
                    } else if c.group == 12 {
                        wrapped(cr, v, x: cx + 1.5, y: y + 8.5, width: c.width - 3, lines: 2)
                    } else {
                        fitted(cr, v, x: cx + 1.5, y: y + 14, width: c.width - 3)
                    }
                }
                cx += c.width
            }
            line(cr, m, y + rowHeight, m + width, y + rowHeight)
        }
        for row in page.entries.count..<rowsPerPage {
            let y = bodyTop + Double(row + 1) * rowHeight
            line(cr, m, y, m + width, y)
        }

        // Footer: this page, previous pages, total.
        let labelWidth = cols.prefix { $0.group < 5 }.reduce(0) { $0 + $1.width }
        for (i, (label, totals)) in [
            // Chosen records (an examiner's, an employer's request) say so; what came before is brought forward as ever.
            (selected ? "SELECTED RECORDS, THIS PAGE" : "TOTAL THIS PAGE", page.thisPage),
            (selected ? "BROUGHT FORWARD (LOGBOOK BEFORE) + SELECTED ON PREVIOUS PAGES" : "TOTAL FROM PREVIOUS PAGES", page.broughtForward),
            (selected ? "TOTAL TIME (BROUGHT FORWARD + SELECTED RECORDS)" : "TOTAL TIME", page.total),
        ].enumerated() {
            let y = footerTop + Double(i) * footerRow
            cairo_set_font_size(cr, 7)
            fitted(cr, label, x: m + 2, y: y + 10, width: labelWidth - 4)
            var cx = m
            for c in cols {
                if let total = c.total { rightAligned(cr, total(totals), right: cx + c.width - 1.5, y: y + 10) }
                cx += c.width
            }
            line(cr, m, y + footerRow, m + width, y + footerRow)
        }
        cairo_set_font_size(cr, 8)
        text(cr, "I certify that the entries in this log are true.   \(pilotName)", x: m, y: bottom + 20)
        text(cr, "PILOT'S SIGNATURE ____________________________", x: m + width - 250, y: bottom + 20)
    }

    private func line(_ cr: OpaquePointer, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        cairo_move_to(cr, x1, y1)
        cairo_line_to(cr, x2, y2)
        cairo_stroke(cr)
    }

    private func text(_ cr: OpaquePointer, _ s: String, x: Double, y: Double) {
        cairo_move_to(cr, x, y)
        cairo_show_text(cr, s)
    }

    private func advance(_ cr: OpaquePointer, _ s: String) -> Double {
        var extents = cairo_text_extents_t()
        cairo_text_extents(cr, s, &extents)
        return extents.x_advance
    }

    /// Shortens `s` with an ellipsis until it fits `width`.
    private func fitted(_ cr: OpaquePointer, _ s: String, x: Double, y: Double, width: Double) {
        var t = s
        while !t.isEmpty && advance(cr, t) > width {
            t = String(t.dropLast(t.hasSuffix("…") ? 2 : 1)) + "…"
            if t == "…" { break }
        }
        text(cr, t, x: x, y: y)
    }

    private func rightAligned(_ cr: OpaquePointer, _ s: String, right: Double, y: Double) {
        text(cr, s, x: right - advance(cr, s), y: y)
    }

    private func wrapped(_ cr: OpaquePointer, _ s: String, x: Double, y: Double, width: Double, lines: Int) {
        var remaining = s.split(separator: " ").map(String.init)
        for i in 0..<lines {
            var current = ""
            while let word = remaining.first, advance(cr, current.isEmpty ? word : current + " " + word) <= width || current.isEmpty {
                current = current.isEmpty ? word : current + " " + word
                remaining.removeFirst()
                if advance(cr, current) > width { break }
            }
            if i == lines - 1 && !remaining.isEmpty { current += " " + remaining.joined(separator: " ") }
            fitted(cr, current, x: x, y: y + Double(i) * 9, width: width)
            if remaining.isEmpty { break }
        }
    }
}
