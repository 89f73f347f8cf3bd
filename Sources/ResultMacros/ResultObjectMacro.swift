import SwiftCompilerPlugin
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@ResultObject`: a result type declares its result once, by its stored properties. This writes
/// what Codable and the schema would otherwise repeat by hand: the snake_case keys, `encode(to:)`
/// (an optional is written as `null`, or left out when marked `@OmitWhenNil`; a `@Flatten`
/// property's members join this object), and the JSON Schema, whose descriptions are the
/// properties' `///` comments. Hand-written because no library derives a JSON Schema from a
/// Swift declaration.
public struct ResultObjectMacro: ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax, attachedTo declaration: some DeclGroupSyntax, providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax], in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard declaration.is(StructDeclSyntax.self) else {
            context.diagnose(Diagnostic(node: node, message: ResultMacroMessage("@ResultObject applies to a struct")))
            return []
        }
        var fields: [Field] = []
        for member in declaration.memberBlock.members {
            guard let variable = member.decl.as(VariableDeclSyntax.self), !variable.isStatic else { continue }
            fields += try Field.read(variable, in: context)
        }
        let access =
            declaration.modifiers.contains { ["public", "package"].contains($0.name.text) }
            ? declaration.modifiers.first { ["public", "package"].contains($0.name.text) }!.name.text + " " : ""
        let description = node.arguments?.as(LabeledExprListSyntax.self)?.first?.expression

        let keyed = fields.filter { !$0.flattened }
        let keys =
            keyed.isEmpty
            ? ""
            : "enum CodingKeys: String, CodingKey {\n"
                + keyed.map {
                    "case \($0.swiftName) = \(literal($0.key))"
                }.joined(separator: "\n") + "\n}"
        let writes = fields.map { field -> String in
            if field.flattened { return "try self.\(field.swiftName).encode(to: encoder)" }
            if field.omittedWhenNil { return "try container.encodeIfPresent(self.\(field.swiftName), forKey: .\(field.swiftName))" }
            if field.optional {
                return "if let value = self.\(field.swiftName) { try container.encode(value, forKey: .\(field.swiftName)) } "
                    + "else { try container.encodeNil(forKey: .\(field.swiftName)) }"
            }
            return "try container.encode(self.\(field.swiftName), forKey: .\(field.swiftName))"
        }
        let container = keyed.isEmpty ? "" : "var container = encoder.container(keyedBy: CodingKeys.self)\n"
        // One statement per member: a single `+` chain of them takes the type checker too long.
        let members = fields.map { field -> String in
            field.flattened
                ? "members += \(field.type).resultMembers"
                : "members.append((\(literal(field.key + (field.omittedWhenNil ? "?" : ""))), \(field.schema)))"
        }
        let schema = "JSONSchema.object(ordered: resultMembers)" + (description.map { ".described(\($0.trimmedDescription))" } ?? "")
        let conformances = protocols.isEmpty ? "" : ": " + protocols.map(\.trimmedDescription).joined(separator: ", ")
        let source: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformances) {
            \(raw: keys)
            \(raw: access)func encode(to encoder: any Encoder) throws {
            \(raw: container)\(raw: writes.joined(separator: "\n"))
            }
            \(raw: access)static var resultMembers: [(String, JSONSchema)] {
            var members: [(String, JSONSchema)] = []
            \(raw: members.joined(separator: "\n"))
            return members
            }
            \(raw: access)static var resultSchema: JSONSchema { \(raw: schema) }
            }
            """
        guard let ext = source.as(ExtensionDeclSyntax.self) else { return [] }
        return [ext]
    }

    static func literal(_ text: String) -> String { StringLiteralExprSyntax(content: text).description }
}

/// One stored property as the result shows it.
struct Field {
    var swiftName: String
    var key: String
    var type: String
    var optional: Bool
    var omittedWhenNil: Bool
    var flattened: Bool
    var schema: String

    static func read(_ variable: VariableDeclSyntax, in context: some MacroExpansionContext) throws -> [Field] {
        let marks = Set(variable.attributes.compactMap { $0.as(AttributeSyntax.self)?.attributeName.trimmedDescription })
        let override = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }.first { $0.attributeName.trimmedDescription == "Schema" }?
            .arguments?.as(LabeledExprListSyntax.self)?.first?.expression.trimmedDescription
        let keyOverride = variable.attributes.compactMap { $0.as(AttributeSyntax.self) }.first { $0.attributeName.trimmedDescription == "Key" }?
            .arguments?.as(LabeledExprListSyntax.self)?.first?.expression.as(StringLiteralExprSyntax.self)?.representedLiteralValue
        let description = docComment(variable.leadingTrivia)
        var fields: [Field] = []
        for binding in variable.bindings {
            if marks.contains("NotInResult") { continue }
            // A getter makes it computed (in the result only when marked); willSet/didSet keep it stored.
            if let accessors = binding.accessorBlock?.accessors, !marks.contains("InResult") {
                guard case .accessors(let list) = accessors, list.allSatisfy({ ["willSet", "didSet"].contains($0.accessorSpecifier.text) })
                else { continue }
            }
            guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text else { continue }
            guard let typeSyntax = binding.typeAnnotation?.type else {
                context.diagnose(
                    Diagnostic(node: binding, message: ResultMacroMessage("give the type of '\(name)': the result's schema is read from it")))
                continue
            }
            let wrapped = unwrappedOptional(typeSyntax)
            let optional = wrapped != nil
            let omitted = marks.contains("OmitWhenNil")
            if omitted && !optional {
                context.diagnose(Diagnostic(node: binding, message: ResultMacroMessage("@OmitWhenNil needs an optional: '\(name)' is never nil")))
            }
            let bare = name.trimmingBackticks
            let valueType = (omitted ? wrapped : nil) ?? typeSyntax.trimmedDescription
            // The declared schema is read as a JSONSchema first, so `.dateTime` has its type.
            var schema =
                override.map { optional && !omitted ? "JSONSchema.orNull(\($0))" : "JSONSchema.given(\($0))" }
                ?? "ResultSchemaOf<\(valueType)>.schema"
            if let description { schema += ".described(\(ResultObjectMacro.literal(description)))" }
            fields.append(
                Field(
                    swiftName: name, key: keyOverride ?? snakeCase(bare), type: typeSyntax.trimmedDescription, optional: optional,
                    omittedWhenNil: omitted, flattened: marks.contains("Flatten"), schema: schema))
        }
        return fields
    }

    /// `T?` or `Optional<T>`: T's spelling.
    static func unwrappedOptional(_ type: TypeSyntax) -> String? {
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType.trimmedDescription }
        if let generic = type.as(IdentifierTypeSyntax.self), generic.name.text == "Optional",
            let argument = generic.genericArgumentClause?.arguments.first
        {
            return argument.argument.trimmedDescription
        }
        return nil
    }

    /// The `///` lines before the property, as one line: they describe the field to its reader.
    static func docComment(_ trivia: Trivia) -> String? {
        let lines = trivia.compactMap { piece -> String? in
            guard case .docLineComment(let text) = piece else { return nil }
            return String(text.dropFirst(3)).trimmingCharacters(in: " ")
        }
        return lines.isEmpty ? nil : lines.joined(separator: " ")
    }

    /// Foundation's `convertToSnakeCase`: a word starts at a capital after a small letter or
    /// digit, or at the last capital of a run followed by a small letter (`someURLPath` →
    /// `some_url_path`).
    static func snakeCase(_ name: String) -> String {
        let characters = Array(name)
        var out = ""
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) { out += "_" }
            }
            out += character.lowercased()
        }
        return out
    }
}

extension String {
    var trimmingBackticks: String { filter { $0 != "`" } }

    func trimmingCharacters(in set: Character) -> String {
        var text = Substring(self)
        while text.first == set { text = text.dropFirst() }
        while text.last == set { text = text.dropLast() }
        return String(text)
    }
}

extension VariableDeclSyntax {
    var isStatic: Bool { modifiers.contains { ["static", "class"].contains($0.name.text) } }
}

/// `@Schema(.dateTime)`, `@OmitWhenNil`, `@Flatten`, `@Key("in")`, `@InResult`, `@NotInResult`: marks that `@ResultObject` reads;
/// they add nothing themselves.
public struct ResultFieldMark: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax, providingPeersOf declaration: some DeclSyntaxProtocol, in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] { [] }
}

struct ResultMacroMessage: DiagnosticMessage {
    let message: String
    init(_ message: String) { self.message = message }
    var diagnosticID: MessageID { MessageID(domain: "ResultMacros", id: message) }
    var severity: DiagnosticSeverity { .error }
}

@main struct ResultMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [ResultObjectMacro.self, ResultFieldMark.self]
}
