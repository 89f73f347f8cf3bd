/// A rule over several parameters of one command, declared beside the command and checked with its
/// parameters before the handler runs, so a handler never repeats it:
///
///     Command("export.ics", …).checking(.ordered(StagParams.firstDay, StagParams.lastDay, maxDays: 400))
public struct ParamRule: Sendable {
    /// What the rule asks, for `help`.
    public let summary: String
    package let check: @Sendable (Params) throws(RPCError) -> Void

    public init(_ summary: String, check: @escaping @Sendable (Params) throws(RPCError) -> Void) {
        self.summary = summary
        self.check = check
    }

    /// Two dates (`YYYY-MM-DD`), the second not before the first and, with `maxDays`, at most
    /// that many days after it. Checked when both are given.
    public static func ordered(_ first: some ParamDeclaration, _ last: some ParamDeclaration, maxDays: Int? = nil) -> ParamRule {
        let (a, b) = (first.spec.name, last.spec.name)
        let summary = "\(b) is not before \(a)" + (maxDays.map { ", and at most \($0) days after it" } ?? "")
        return ParamRule(summary) { params throws(RPCError) in
            guard let from = params[a]?.stringValue.flatMap(DateOnly.init), let to = params[b]?.stringValue.flatMap(DateOnly.init) else { return }
            guard from <= to else { throw RPCError.invalidParam(b, "(\(to)) is before \(a) (\(from))") }
            if let maxDays, from.adding(days: maxDays) < to {
                throw RPCError.invalidParam(b, "is more than \(maxDays) days after \(a) (\(from) to \(to))")
            }
        }
    }

    /// At least one of the parameters is given (a search needs something to search by). The error
    /// names the first, and says the others would do too.
    public static func anyOf(_ declarations: any ParamDeclaration...) -> ParamRule {
        let names = declarations.map(\.spec.name)
        let listed = names.map { "`\($0)`" }.joined(separator: " or ")
        return ParamRule("give \(listed)") { params throws(RPCError) in
            guard names.allSatisfy({ params[$0] == nil || params[$0] == .null }) else { return }
            throw RPCError.invalidParam(names[0], "is needed: give \(names.joined(separator: " or "))")
        }
    }

    /// Exactly one of the parameters (a file, or an address to fetch it from). The error names the
    /// first when none is given, and the second when both are.
    public static func exactlyOne(_ first: some ParamDeclaration, _ second: some ParamDeclaration) -> ParamRule {
        let (a, b) = (first.spec.name, second.spec.name)
        return ParamRule("give `\(a)` or `\(b)`, not both") { params throws(RPCError) in
            let given = [a, b].filter { params[$0] != nil && params[$0] != .null }
            if given.isEmpty { throw RPCError.invalidParam(a, "is needed: give \(a) or \(b)") }
            if given.count == 2 { throw RPCError.invalidParam(b, "cannot be given with \(a): give one of them") }
        }
    }
}

extension PluginCommand {
    /// The same command with rules over its parameters.
    public func checking(_ rules: ParamRule...) -> PluginCommand {
        mapDescriptor { $0.rules += rules }
    }
}
