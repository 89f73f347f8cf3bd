import Foundation
import PluginKit

// KOSapi's Atom content as the fields of `Decodable` rows: a row type names each element KOSapi
// sends by its own name and says how to read it (`@AtomLocalized var name: String?`). An
// element that is missing or empty reads as nil (or an empty list): one odd element never
// loses its entry. The rows are decoded from the parsed tree (`AtomContentDecoder`), within the
// parser's limits.

/// A field's reading of the child elements of its name (none when KOSapi left it out).
protocol AtomField: Decodable, Sendable {
    associatedtype Value: Sendable
    static func read(_ nodes: [XMLNode], language: String) -> Value
    init(wrappedValue: Value)
}

extension AtomField {
    /// `AtomContentDecoder` hands a field its elements directly (`init(nodes:)`); any other
    /// decoder has no XML to give it.
    init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(Self.self, .init(codingPath: decoder.codingPath, debugDescription: "an Atom field is read from XML"))
    }

    init(nodes: [XMLNode], language: String) { self.init(wrappedValue: Self.read(nodes, language: language)) }
}

/// The first element's trimmed text, as sent (empty when the element is).
@propertyWrapper struct AtomText: AtomField {
    var wrappedValue: String?
    static func read(_ nodes: [XMLNode], language: String) -> String? { nodes.first?.trimmedText }
}

/// The first element's trimmed text; nil when it is missing or blank (a field an entry is of no
/// use without).
@propertyWrapper struct AtomNonEmpty: AtomField {
    var wrappedValue: String?
    static func read(_ nodes: [XMLNode], language: String) -> String? {
        guard let text = nodes.first?.trimmedText, !text.isEmpty else { return nil }
        return text
    }
}

/// The first element's text as a whole number.
@propertyWrapper struct AtomInt: AtomField {
    var wrappedValue: Int64?
    static func read(_ nodes: [XMLNode], language: String) -> Int64? { nodes.first.flatMap { Int64($0.trimmedText) } }
}

/// `true` when the first element says so.
@propertyWrapper struct AtomFlag: AtomField {
    var wrappedValue: Bool
    static func read(_ nodes: [XMLNode], language: String) -> Bool { nodes.first?.trimmedText == "true" }
}

/// Whether the element is there at all (`<roles><teacher/></roles>`).
@propertyWrapper struct AtomPresent: AtomField {
    var wrappedValue: Bool
    static func read(_ nodes: [XMLNode], language: String) -> Bool { !nodes.isEmpty }
}

/// A multilingual text in the configured language, else in another (a title missing in one
/// language falls back to the other).
@propertyWrapper struct AtomLocalized: AtomField {
    var wrappedValue: String?
    static func read(_ nodes: [XMLNode], language: String) -> String? {
        let candidates = nodes.filter { !$0.trimmedText.isEmpty }
        func lang(_ node: XMLNode) -> String? { node.attribute("lang", XMLNode.xmlNamespace) }
        return (candidates.first { lang($0) == language } ?? candidates.first { lang($0) == nil } ?? candidates.first)?.trimmedText
    }
}

/// Every element's text, blanks left out (`<teacher>` repeated).
@propertyWrapper struct AtomTexts: AtomField {
    var wrappedValue: [String]
    static func read(_ nodes: [XMLNode], language: String) -> [String] { nodes.map(\.trimmedText).filter { !$0.isEmpty } }
}

/// A reference to another resource: the code at the end of its `xlink:href`, and its text (the
/// target's name, as KOSapi writes it in).
struct AtomLink: Sendable, Equatable {
    var code: String?
    var text: String

    init(_ node: XMLNode) {
        code = node.attribute("href", XMLNode.xlink).flatMap(KOSQuery.code(fromHref:))
        text = node.trimmedText
    }
}

/// The first element as a reference.
@propertyWrapper struct AtomLinked: AtomField {
    var wrappedValue: AtomLink?
    static func read(_ nodes: [XMLNode], language: String) -> AtomLink? { nodes.first.map(AtomLink.init) }
}

/// Every element as a reference.
@propertyWrapper struct AtomLinks: AtomField {
    var wrappedValue: [AtomLink]
    static func read(_ nodes: [XMLNode], language: String) -> [AtomLink] { nodes.map(AtomLink.init) }
}

/// The first element read as a row of its own (`<teachers><teacher>…`), or nil.
@propertyWrapper struct AtomRow<Row: Decodable & Sendable>: AtomField {
    var wrappedValue: Row?
    static func read(_ nodes: [XMLNode], language: String) -> Row? {
        nodes.first.flatMap { AtomContentDecoder.decode($0, as: Row.self, language: language) }
    }
}

/// Every element read as a row (`<timetableSlot>` repeated); one that does not decode is left out.
@propertyWrapper struct AtomRows<Row: Decodable & Sendable>: AtomField {
    var wrappedValue: [Row]
    static func read(_ nodes: [XMLNode], language: String) -> [Row] {
        nodes.compactMap { AtomContentDecoder.decode($0, as: Row.self, language: language) }
    }
}

/// Decodes a row from an element's children, each member from the children of its name.
/// Written by hand: XMLCoder decodes bytes, not the tree the bounded parser already built and
/// the Atom reader walked, and knows neither `xml:lang` nor `xlink:href`.
enum AtomContentDecoder {
    /// The row of `node`'s children; nil when a member is not an Atom field.
    static func decode<Row: Decodable>(_ node: XMLNode, as type: Row.Type, language: String) -> Row? {
        try? Row(from: Element(node: node, language: language, codingPath: []))
    }

    /// An element read as a row: its children are the members.
    struct Element: Decoder {
        let node: XMLNode
        let language: String
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Children(node: node, language: language, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw refused }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { throw refused }

        var refused: DecodingError {
            .typeMismatch(Any.self, .init(codingPath: codingPath, debugDescription: "an Atom row's members are Atom fields"))
        }
    }

    struct Children<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let node: XMLNode
        let language: String
        let codingPath: [any CodingKey]
        /// The children by name, in order: grouped once, so each member is one lookup.
        let byName: [String: [XMLNode]]
        var allKeys: [Key] { node.children.compactMap { Key(stringValue: $0.name) } }

        init(node: XMLNode, language: String, codingPath: [any CodingKey]) {
            self.node = node
            self.language = language
            self.codingPath = codingPath
            byName = Dictionary(grouping: node.children, by: \.name)
        }

        /// Every member is there: a field reads a missing element as its own nothing.
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool { false }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            guard let field = T.self as? any AtomField.Type else { throw refused(key) }
            return field.init(nodes: byName[key.stringValue] ?? [], language: language) as! T
        }

        /// A nested row is an `@AtomRow` field; these shapes are refused.
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw refused(key)
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw refused(key) }
        func superDecoder() throws -> any Decoder { Element(node: node, language: language, codingPath: codingPath) }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw refused(key) }

        func refused(_ key: Key) -> DecodingError {
            .typeMismatch(Any.self, .init(codingPath: codingPath + [key], debugDescription: "an Atom row's members are Atom fields"))
        }
    }
}

extension AtomDocument.Entry {
    /// The entry's content as a row; nil without content.
    func row<Row: Decodable>(_ type: Row.Type, language: String) -> Row? {
        content.flatMap { AtomContentDecoder.decode($0, as: type, language: language) }
    }
}
