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

    struct FailedForm: Sendable {
        let method: String
        let param: String?
        let message: String
        let typed: [String: String]
    }

    /// Every section of `page`, in the plugins' order.
    func sections(_ page: PageDeclaration.Page) -> [PageDeclaration] {
        host.supervisors.flatMap { $0.manifest.pages.filter { $0.page == page } }
    }

    func values(_ page: PageDeclaration.Page, _ context: WebContext) async -> [[String: Any]] {
        var drawn: [[String: Any]] = []
        let role = context.device?.role ?? .read
        for section in sections(page) {
            var values: [String: Any] = ["title": section.title.text(context.language.rawValue)]
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

    /// `{today}`, `{tomorrow}` and `{week_end}` as dates in the daemon's zone.
    func placeholders(_ params: [String: JSONValue]) -> [String: JSONValue] {
        let today = DateOnly(host.clock.now, in: pages.zone)
        let known = ["{today}": today, "{tomorrow}": today.adding(days: 1), "{week_end}": today.adding(days: 7)]
        return params.mapValues { value in value.stringValue.flatMap { known[$0] }.map { .string($0.description) } ?? value }
    }

    func table(_ result: JSONValue, _ view: ResultView?, _ section: PageDeclaration, role: WebDevices.Role, _ context: WebContext)
        -> [String: Any]
    {
        let cells = Cells(pages: pages, language: context.language, now: host.clock.now)
        var values: [String: Any] = [:]
        guard let view else {
            values["fields"] = (result.objectValue ?? [:]).sorted { $0.key < $1.key }.map { ["label": $0.key, "value": cells.text($0.value, .text)] }
            return values
        }
        values["fields"] = view.fields.compactMap { field -> [String: Any]? in
            guard let key = field.key else { return ["heading": field.label] }
            guard let value = ShortAnswer.member(key, of: result), value != .null, value != false else { return nil }
            return ["label": field.label, "value": cells.text(value, field.format)]
        }
        guard !view.columns.isEmpty else {
            // A card: its buttons act on the whole answer (a printer's job).
            if role == .full { values["cardActions"] = buttons(section.actions, result, cells, context) }
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
                "actions": buttons(actions, row, cells, context),
            ]
            if view.highlights.contains(where: { ShortAnswer.member($0.key, of: row) == $0.value && $0.colour == .red }) {
                drawn["highlight"] = "late"
            }
            return drawn
        }
        return values
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
                "method": action.method, "label": action.label.text(context.language.rawValue),
                "arguments": action.fromRow.sorted { $0.key < $1.key }.map { param, member in
                    ["name": param, "value": ShortAnswer.member(member, of: row).map { cells.text($0, .text) } ?? ""]
                },
            ]
        }
    }

    func formValues(_ form: PageDeclaration.Form, _ descriptor: CommandDescriptor, _ context: WebContext) -> [String: Any] {
        let language = context.language.rawValue
        let inputs = form.fields.compactMap { field -> [String: Any]? in
            guard let spec = descriptor.params.first(where: { $0.name == field.param }) else { return nil }
            var input: [String: Any] = ["name": spec.name, "label": field.label.text(language), "required": spec.required]
            if let failed, failed.method == form.method {
                input["value"] = failed.typed[spec.name] ?? ""
                if failed.param == spec.name { input["error"] = failed.message }
            }
            switch spec.type {
            case .oneOf(let choices): input["choices"] = choices
            case .integer, .number: input["type"] = "number"
            case .date: input["type"] = "date"
            default: input["type"] = "text"
            }
            return input
        }
        var values: [String: Any] = ["method": form.method, "label": form.label.text(language), "inputs": inputs]
        // An error that names no field of the form is said above it.
        if let failed, failed.method == form.method, !form.fields.contains(where: { $0.param == failed.param }) { values["error"] = failed.message }
        return values
    }
}
