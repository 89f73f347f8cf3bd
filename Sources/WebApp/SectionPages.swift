import Foundation
import HostCore

/// The pages drawn from the sections the plugins declare (`PageDeclaration`): each section's read
/// called through the gate and shown through the read's own view, with its row actions and its
/// form. The app names no plugin; a plugin that declares nothing for a page adds nothing to it.
struct SectionPages: Sendable {
    let host: AssistantHost
    let pages: Pages
    let gate: WebGate
    /// A form sent back with a bad field: what was typed, and the error beside its field.
    var failed: FailedForm? = nil
    /// The Monday of the week a page shows (`{week_start}`, `{week_last}`), this week by default.
    var weekStart: DateOnly? = nil

    /// One class of a week grid, whichever plugin it came from.
    struct GridItem: Sendable {
        /// 1 = Monday.
        let weekday: Int
        let start: String
        let end: String
        let title: String
        let place: String
        let mark: String
        /// What a tap shows: each detail's label and text.
        let details: [(label: String, text: String)]
    }

    struct FailedForm: Sendable {
        let method: String
        let param: String?
        let message: String
        let typed: [String: String]
    }

    /// A form's check (`PageDeclaration.Form.preview`): what was typed, and what would be saved.
    struct PreviewedForm: Sendable {
        let method: String
        let typed: [String: String]
        let answer: JSONValue
    }

    var previewed: PreviewedForm? = nil

    /// A section as declared, with where it is declared: `/picture` and `/suggest` name it so.
    struct Shown: Sendable {
        let plugin: String
        let index: Int
        let declaration: PageDeclaration
    }

    /// A page lists at most this many of a section's items (printers).
    static let maxItems = 12

    /// The page's sections of every plugin that is set up, by the plugin's own declared test (as
    /// an AI assistant's resources are offered): a person who does not use KOS sees no KOS section.
    func sections(_ page: PageDeclaration.Page) async -> [Shown] {
        var shown: [Shown] = []
        for supervisor in host.supervisors {
            let declared = supervisor.manifest.pages.enumerated().filter { $0.element.page == page }
            guard !declared.isEmpty else { continue }
            if let setUp = supervisor.manifest.resourcesSetUp {
                let answer = try? await gate.call(setUp.method, [:], role: .read, confirmed: false)
                guard setUp.holds(in: answer) else { continue }
            }
            shown += declared.map { Shown(plugin: supervisor.manifest.id, index: $0.offset, declaration: $0.element) }
        }
        return shown
    }

    /// The section a `/picture` or `/suggest` address names.
    func section(plugin: String, index: Int) -> PageDeclaration? {
        guard let manifest = host.supervisors.first(where: { $0.manifest.id == plugin })?.manifest, manifest.pages.indices.contains(index)
        else { return nil }
        return manifest.pages[index]
    }

    /// The names of the items a section is shown for (each printer), or one unnamed showing.
    func items(_ section: PageDeclaration) async throws -> [String?] {
        guard let each = section.each else { return [nil] }
        let answer = try await gate.call(each.method, [:], role: .read, confirmed: false)
        let list = (ShortAnswer.member(each.member, of: answer)?.arrayValue ?? []).prefix(Self.maxItems)
        return list.compactMap { ShortAnswer.member(each.key, of: $0)?.stringValue }
    }

    /// The arguments of a section's read or picture: its declared ones, placeholders filled, and the item it is shown for.
    func arguments(_ params: JSONValue, _ section: PageDeclaration, item: String?) -> [String: JSONValue] {
        var arguments = placeholders(params.objectValue ?? [:])
        if let each = section.each, let item { arguments[each.param] = .string(item) }
        return arguments
    }

    func values(_ page: PageDeclaration.Page, _ context: WebContext) async -> [[String: Any]] {
        var drawn: [[String: Any]] = []
        let role = context.device?.role ?? .read
        for shown in await sections(page) {
            let section = shown.declaration
            let title = section.title.text(context.language)
            let items: [String?]
            do {
                items = try await self.items(section)
            } catch {
                drawn.append(["title": title, "error": host.redactor.redact(ErrorText.sentence(error)), "form": false, "has_pictures": false])
                continue
            }
            for item in items {
                var values: [String: Any] = ["title": item.map { "\(title): \($0)" } ?? title, "error": false, "form": false]
                do {
                    let result = try await gate.call(
                        section.read.method, arguments(section.read.params, section, item: item), role: .read, confirmed: false)
                    let view = gate.descriptor(section.read.method)?.view
                    values.merge(table(result, view, section, role: role, context), uniquingKeysWith: { $1 })
                } catch {
                    values["error"] = host.redactor.redact(ErrorText.sentence(error))
                }
                let pictures = section.pictures.enumerated().map { number, picture -> [String: Any] in
                    var query = item.map { ["item=" + Self.queryValue($0)] } ?? []
                    if let weekStart { query.append("week=\(weekStart)") }
                    let address = "/picture/\(shown.plugin)/\(shown.index)/\(number)" + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
                    return [
                        "src": address, "label": picture.label.text(context.language), "download": picture.download,
                        "refresh": picture.refreshSeconds.map(String.init) ?? false,
                    ]
                }
                values["pictures"] = pictures
                values["has_pictures"] = !pictures.isEmpty
                if role == .full, let form = section.form, let descriptor = gate.descriptor(form.method) {
                    values["form"] = formValues(form, descriptor, shown, context)
                }
                drawn.append(values)
            }
        }
        return drawn
    }

    /// A value in an address's query, escaped.
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? ""
    }

    /// The Monday of the week shown.
    var monday: DateOnly {
        let day = weekStart ?? DateOnly(host.clock.now, in: pages.zone)
        return day.adding(days: -day.weekdayFromMonday)
    }

    /// `{today}`, `{tomorrow}`, `{week_end}`, `{week_start}` and `{week_last}` as dates in the daemon's zone.
    func placeholders(_ params: [String: JSONValue]) -> [String: JSONValue] {
        let today = DateOnly(host.clock.now, in: pages.zone)
        let known = [
            "{today}": today, "{tomorrow}": today.adding(days: 1), "{week_end}": today.adding(days: 7), "{week_start}": monday,
            "{week_last}": monday.adding(days: 6),
        ]
        return params.mapValues { value in value.stringValue.flatMap { known[$0] }.map { .string($0.description) } ?? value }
    }

    func table(_ result: JSONValue, _ view: ResultView?, _ section: PageDeclaration, role: WebDevices.Role, _ context: WebContext)
        -> [String: Any]
    {
        let cells = Cells(pages: pages, language: context.language, now: host.clock.now)
        var values: [String: Any] = [:]
        guard let view else {
            let fields = (result.objectValue ?? [:]).sorted { $0.key < $1.key }.map { ["label": $0.key, "value": cells.text($0.value, .text)] }
            values["fields"] = fields
            values["has_fields"] = !fields.isEmpty
            return values
        }
        // Mustache has no "is this list empty" of its own: each list a template tests comes with its has_ flag.
        let fields = view.fields.compactMap { field -> [String: Any]? in
            // Mustache looks a missing name up in the page around it (whose `heading` is the
            // page's): every item says whether it is a heading.
            guard let key = field.key else { return ["is_heading": true, "label": field.label] }
            guard let value = ShortAnswer.member(key, of: result), value != .null, value != false else { return nil }
            return ["is_heading": false, "label": cells.label(field.label), "value": cells.text(value, field.format)]
        }
        values["fields"] = fields
        values["has_fields"] = !fields.isEmpty
        if let grid = view.grid {
            values["gridItems"] = gridItems(result, view, grid, cells)
            return values
        }
        guard !view.columns.isEmpty else {
            // A card: its buttons act on the whole answer (a printer's job).
            if role == .full {
                let actions = buttons(section.actions, result, cells, context)
                values["cardActions"] = actions
                values["has_cardActions"] = !actions.isEmpty
            }
            return values
        }
        let rows = (view.rows.flatMap { ShortAnswer.member($0, of: result) } ?? result).arrayValue ?? []
        let actions = role == .full ? section.actions : []
        values["headers"] = view.columns.map { cells.header($0.header) }
        values["hasActions"] = !actions.isEmpty
        values["hasRows"] = !rows.isEmpty
        values["noRows"] = rows.isEmpty
        values["rows"] = rows.prefix(500).map { row -> [String: Any] in
            var drawn: [String: Any] = [
                "cells": view.columns.map { column in
                    let text = cells.text(ShortAnswer.member(column.key, of: row) ?? .null, column.format)
                    guard let until = column.until, let end = ShortAnswer.member(until, of: row), end != .null else { return text }
                    return text + "–" + cells.text(end, .time)
                },
                "actions": buttons(actions, row, cells, context), "highlight": false,
            ]
            drawn["swipes"] = (drawn["actions"] as? [[String: Any]] ?? []).contains { $0["swipe"] as? Bool == true }
            if view.highlights.contains(where: { ShortAnswer.member($0.key, of: row) == $0.value && $0.colour == .red }) {
                drawn["highlight"] = "late"
            }
            return drawn
        }
        return values
    }

    /// The rows of a week grid within the week shown: a row's day is a date (kept when it falls in
    /// the week) or a weekday number (1 = Monday), as `ResultView.WeekGrid` says.
    func gridItems(_ result: JSONValue, _ view: ResultView, _ grid: ResultView.WeekGrid, _ cells: Cells) -> [GridItem] {
        let rows = (view.rows.flatMap { ShortAnswer.member($0, of: result) } ?? result).arrayValue ?? []
        let first = monday
        return rows.prefix(500).compactMap { row -> GridItem? in
            func text(_ key: String?) -> String { key.flatMap { ShortAnswer.member($0, of: row)?.stringValue } ?? "" }
            let dayValue = ShortAnswer.member(grid.day, of: row)
            let weekday: Int
            if let number = dayValue?.intValue {
                weekday = Int(number)
            } else if let date = dayValue?.stringValue.flatMap(DateOnly.init) {
                guard first <= date, date <= first.adding(days: 6) else { return nil }
                weekday = date.weekdayFromMonday + 1
            } else {
                return nil
            }
            guard (1...7).contains(weekday) else { return nil }
            let details = grid.details.compactMap { field -> (String, String)? in
                guard let key = field.key, let value = ShortAnswer.member(key, of: row), SectionPages.holds(value) else { return nil }
                return (cells.label(field.label), cells.text(value, field.format))
            }
            return GridItem(
                weekday: weekday, start: text(grid.start), end: text(grid.end), title: text(grid.title), place: text(grid.place),
                mark: text(grid.mark), details: details)
        }
    }

    /// The grids of every section merged into one week: seven days, each in time order, today marked.
    func week(_ items: [GridItem], _ context: WebContext) -> [String: Any] {
        let first = monday
        let today = DateOnly(host.clock.now, in: pages.zone)
        let days = (0..<7).map { offset -> [String: Any] in
            let date = first.adding(days: offset)
            let noon = date.at("12:00", in: pages.zone) ?? host.clock.now
            return [
                "name": pages.day(noon, context.language), "today": date == today,
                "items": items.filter { $0.weekday == offset + 1 }.sorted { ($0.start, $0.title) < ($1.start, $1.title) }.map {
                    [
                        "start": $0.start, "end": $0.end, "title": $0.title, "place": Pages.orFalse($0.place), "mark": Pages.orFalse($0.mark),
                        "details": $0.details.map { ["label": $0.label, "text": $0.text] }, "has_details": !$0.details.isEmpty,
                    ]
                },
            ]
        }
        return [
            "days": days, "previous": first.adding(days: -7).description, "next": first.adding(days: 7).description,
            "label": pages.catalogue.text(
                "week.of", context.language, ["date": pages.day(first.at("12:00", in: pages.zone) ?? host.clock.now, context.language)]),
        ]
    }

    /// `member` (true, or a text that is not empty) or `member=value`, read from the row.
    static func holds(_ condition: String, in row: JSONValue) -> Bool {
        let parts = condition.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard let name = parts.first, !name.isEmpty else { return false }
        let value = ShortAnswer.member(name, of: row)
        guard parts.count == 2 else { return holds(value) }
        return value?.stringValue == parts[1]
    }

    static func holds(_ value: JSONValue?) -> Bool {
        switch value {
        case .bool(let flag)?: flag
        case .string(let text)?: !text.isEmpty
        case .array(let items)?: !items.isEmpty
        case nil, .null?: false
        default: true
        }
    }

    /// The row's buttons: the actions whose condition holds, each with its arguments from the row.
    func buttons(_ actions: [PageDeclaration.Action], _ row: JSONValue, _ cells: Cells, _ context: WebContext) -> [[String: Any]] {
        actions.filter { action in action.when.map { Self.holds($0, in: row) } ?? true }.map { action -> [String: Any] in
            [
                "method": action.method, "label": action.label.text(context.language), "swipe": action.swipe,
                "arguments": action.fromRow.sorted { $0.key < $1.key }.map { param, member in
                    ["name": param, "value": ShortAnswer.member(member, of: row).map { cells.text($0, .text) } ?? ""]
                } + action.fixed.sorted { $0.key < $1.key }.map { ["name": $0.key, "value": $0.value] },
            ]
        }
    }

    func formValues(_ form: PageDeclaration.Form, _ descriptor: CommandDescriptor, _ shown: Shown, _ context: WebContext) -> [String: Any] {
        let language = context.language
        let typed = failed.flatMap { $0.method == form.method ? $0.typed : nil } ?? previewed.flatMap { $0.method == form.method ? $0.typed : nil }
        let inputs = form.fields.enumerated().compactMap { number, field -> [String: Any]? in
            guard let spec = descriptor.params.first(where: { $0.name == field.param }) else { return nil }
            var input: [String: Any] = [
                "name": spec.name, "label": field.label.text(language), "required": spec.required, "value": false, "error": false,
                "has_choices": false, "suggest": false,
            ]
            if let typed { input["value"] = typed[spec.name] ?? "" }
            if let failed, failed.method == form.method, failed.param == spec.name { input["error"] = failed.message }
            if field.suggest != nil { input["suggest"] = "/suggest/\(shown.plugin)/\(shown.index)/\(number)" }
            switch spec.type {
            case .oneOf(let choices):
                input["choices"] = choices.map { ["choice": $0, "chosen": typed?[spec.name] == $0] }
                input["has_choices"] = !choices.isEmpty
            case .integer, .number: input["type"] = "number"
            case .date: input["type"] = "date"
            default: input["type"] = "text"
            }
            return input
        }
        var values: [String: Any] = [
            "method": form.method, "label": form.label.text(language), "inputs": inputs, "error": false,
            "preview": form.preview.map(\.param) ?? false,
            "previewed": false,
        ]
        // An error that names no field of the form is said above it.
        if let failed, failed.method == form.method, !form.fields.contains(where: { $0.param == failed.param }) { values["error"] = failed.message }
        if let previewed, previewed.method == form.method {
            let cells = Cells(pages: pages, language: language, now: host.clock.now)
            let view = form.preview.flatMap { gate.descriptor($0.view)?.view } ?? descriptor.view
            let fields = previewFields(previewed.answer, view, cells)
            values["previewed"] = ["fields": fields]
        }
        return values
    }

    /// What a check answered, as the method's view (or the read its result shares) shows it, else every member.
    func previewFields(_ answer: JSONValue, _ view: ResultView?, _ cells: Cells) -> [[String: Any]] {
        if let view, !view.fields.isEmpty {
            return view.fields.compactMap { field in
                guard let key = field.key, let value = ShortAnswer.member(key, of: answer), value != .null else { return nil }
                return ["label": field.label, "value": cells.text(value, field.format)]
            }
        }
        return (answer.objectValue ?? [:]).filter { $0.value != .null }.sorted { $0.key < $1.key }.map {
            ["label": $0.key, "value": cells.text($0.value, .text)]
        }
    }
}
