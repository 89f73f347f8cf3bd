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
    }

    struct FailedForm: Sendable {
        let method: String
        let param: String?
        let message: String
        let typed: [String: String]
    }

    /// Every section of `page`, in the plugins' order.
    /// The page's sections of every plugin that is set up, by the plugin's own declared test (as
    /// an AI assistant's resources are offered): a person who does not use KOS sees no KOS section.
    func sections(_ page: PageDeclaration.Page) async -> [PageDeclaration] {
        var shown: [PageDeclaration] = []
        for supervisor in host.supervisors {
            let declared = supervisor.manifest.pages.filter { $0.page == page }
            guard !declared.isEmpty else { continue }
            if let setUp = supervisor.manifest.resourcesSetUp {
                let answer = try? await gate.call(setUp.method, [:], role: .read, confirmed: false)
                guard setUp.holds(in: answer) else { continue }
            }
            shown += declared
        }
        return shown
    }

    func values(_ page: PageDeclaration.Page, _ context: WebContext) async -> [[String: Any]] {
        var drawn: [[String: Any]] = []
        let role = context.device?.role ?? .read
        for section in await sections(page) {
            var values: [String: Any] = ["title": section.title.text(context.language), "error": false, "form": false]
            let arguments = placeholders(section.read.params.objectValue ?? [:])
            do {
                let result = try await gate.call(section.read.method, arguments, role: .read, confirmed: false)
                let view = gate.descriptor(section.read.method)?.view
                values.merge(table(result, view, section, role: role, context), uniquingKeysWith: { $1 })
            } catch {
                values["error"] = host.redactor.redact(ErrorText.sentence(error))
            }
            if role == .full, let form = section.form, let descriptor = gate.descriptor(form.method) {
                values["form"] = formValues(form, descriptor, context)
            }
            drawn.append(values)
        }
        return drawn
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
            return ["is_heading": false, "label": field.label, "value": cells.text(value, field.format)]
        }
        values["fields"] = fields
        values["has_fields"] = !fields.isEmpty
        if let grid = view.grid {
            values["gridItems"] = gridItems(result, view, grid)
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
            if view.highlights.contains(where: { ShortAnswer.member($0.key, of: row) == $0.value && $0.colour == .red }) {
                drawn["highlight"] = "late"
            }
            return drawn
        }
        return values
    }

    /// The rows of a week grid within the week shown: a row's day is a date (kept when it falls in
    /// the week) or a weekday number (1 = Monday), as `ResultView.WeekGrid` says.
    func gridItems(_ result: JSONValue, _ view: ResultView, _ grid: ResultView.WeekGrid) -> [GridItem] {
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
            return GridItem(
                weekday: weekday, start: text(grid.start), end: text(grid.end), title: text(grid.title), place: text(grid.place),
                mark: text(grid.mark))
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
                    ["start": $0.start, "end": $0.end, "title": $0.title, "place": Pages.orFalse($0.place), "mark": Pages.orFalse($0.mark)]
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
        case nil, .null?: false
        default: true
        }
    }

    /// The row's buttons: the actions whose condition holds, each with its arguments from the row.
    func buttons(_ actions: [PageDeclaration.Action], _ row: JSONValue, _ cells: Cells, _ context: WebContext) -> [[String: Any]] {
        actions.filter { action in action.when.map { Self.holds($0, in: row) } ?? true }.map { action -> [String: Any] in
            [
                "method": action.method, "label": action.label.text(context.language),
                "arguments": action.fromRow.sorted { $0.key < $1.key }.map { param, member in
                    ["name": param, "value": ShortAnswer.member(member, of: row).map { cells.text($0, .text) } ?? ""]
                },
            ]
        }
    }

    func formValues(_ form: PageDeclaration.Form, _ descriptor: CommandDescriptor, _ context: WebContext) -> [String: Any] {
        let language = context.language
        let inputs = form.fields.compactMap { field -> [String: Any]? in
            guard let spec = descriptor.params.first(where: { $0.name == field.param }) else { return nil }
            var input: [String: Any] = [
                "name": spec.name, "label": field.label.text(language), "required": spec.required, "value": false, "error": false,
                "has_choices": false,
            ]
            if let failed, failed.method == form.method {
                input["value"] = failed.typed[spec.name] ?? ""
                if failed.param == spec.name { input["error"] = failed.message }
            }
            switch spec.type {
            case .oneOf(let choices):
                input["choices"] = choices
                input["has_choices"] = !choices.isEmpty
            case .integer, .number: input["type"] = "number"
            case .date: input["type"] = "date"
            default: input["type"] = "text"
            }
            return input
        }
        var values: [String: Any] = ["method": form.method, "label": form.label.text(language), "inputs": inputs, "error": false]
        // An error that names no field of the form is said above it.
        if let failed, failed.method == form.method, !form.fields.contains(where: { $0.param == failed.param }) { values["error"] = failed.message }
        return values
    }
}
