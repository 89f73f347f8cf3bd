import Foundation

/// One method's `help` document as a person reads it. `assistantctl help METHOD` prints it and
/// the generated reference pages show it, so the two can never say different things.
public enum MethodHelp {
    public static func text(_ help: JSONValue) -> String {
        var lines = [
            "usage: assistantctl \(help["usage"]?.stringValue ?? "")", "", help["summary"]?.stringValue ?? "",
        ]
        switch help["effect"]?.stringValue {
        case "destructive"?: lines.append("effect: destructive (it loses data or acts outside the daemon: think before calling it)")
        case let effect?: lines.append("effect: \(effect)" + (help["effect_rule"]?.stringValue.map { "; \($0)" } ?? ""))
        case nil: break
        }
        if let reason = help["person_only"]?.stringValue { lines.append("not offered to AI assistants: \(reason)") }
        if let confirm = ConfirmSentence(json: help["confirm"]) {
            let details = confirm.details.map { " (details from \($0))" } ?? ""
            lines.append("an AI assistant's call asks first: " + confirm.sentences.joined(separator: " or ") + details)
        }
        let params = help["params"]?.arrayValue ?? []
        if !params.isEmpty {
            lines.append("")
            lines.append("parameters:")
            for p in params {
                var line = "  \(p["name"]?.stringValue ?? "?") (\(p["type"]?.stringValue ?? "any")"
                line += p["required"]?.boolValue == true ? ", required)" : ")"
                if let d = p["default"] { line += " default \(HumanOutput.scalar(d))" }
                if let choices = p["choices"]?.arrayValue { line += " one of \(choices.compactMap(\.stringValue).joined(separator: ", "))" }
                line += ": \(p["help"]?.stringValue ?? "")"
                lines.append(line)
            }
        }
        if let rules = help["rules"]?.arrayValue, !rules.isEmpty {
            lines.append("")
            lines.append("rules:")
            lines += rules.compactMap(\.stringValue).map { "  \($0)" }
        }
        lines.append("")
        if let says = ShortAnswer(json: help["says"]) { lines.append("says: " + says.sentences.joined(separator: " or ")) }
        lines.append("result: \(help["result"]?.stringValue ?? "")")
        if let schema = help["result_schema"] { lines += JSONSchema.outline(schema).dropFirst() }
        if let example = help["example"]?.stringValue { lines.append("example: \(example)") }
        return lines.joined(separator: "\n")
    }
}
