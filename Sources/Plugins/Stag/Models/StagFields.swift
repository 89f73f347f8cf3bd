import Foundation
import PluginKit

// STAG's value quirks (reference §1.5) as the fields of `Decodable` rows: a row type names each
// field STAG sends by STAG's own key and says how to read it (`@StagText var nazev: String?`).
// A field that is missing, null or of a shape STAG should not send reads as nil: one odd field
// never loses its row, as a row that is not an object never loses its list. StagValue holds the
// readings themselves.

/// A field's reading of whatever JSON value STAG sent for it.
protocol StagField: JSONTreeField, Sendable {
    associatedtype Value: Sendable
    static func read(_ value: JSONValue?) -> Value
    init(wrappedValue: Value)
}

extension StagField {
    /// A field STAG left out (nil) reads as it would from `null`, instead of failing its row.
    init(tree value: JSONValue?) { self.init(wrappedValue: Self.read(value)) }
}

/// A non-empty string (not STAG's `"null"`).
@propertyWrapper struct StagText: StagField {
    var wrappedValue: String?
    static func read(_ value: JSONValue?) -> String? { StagValue.string(value) }
}

/// An int, or a number sent as a string.
@propertyWrapper struct StagInt: StagField {
    var wrappedValue: Int64?
    static func read(_ value: JSONValue?) -> Int64? { StagValue.int(value) }
}

/// `A`/`N`, `ANO`/`NE` or a JSON boolean.
@propertyWrapper struct StagFlag: StagField {
    var wrappedValue: Bool?
    static func read(_ value: JSONValue?) -> Bool? { StagValue.flag(value) }
}

/// `{"value": "d.M.yyyy"}` or a `d.M.yyyy` string, as `YYYY-MM-DD`.
@propertyWrapper struct StagDate: StagField {
    var wrappedValue: String?
    static func read(_ value: JSONValue?) -> String? { StagValue.date(value) }
}

/// `d.M.yyyy H:mm`, as `YYYY-MM-DDTHH:MM` on the university's wall clock.
@propertyWrapper struct StagDateTime: StagField {
    var wrappedValue: String?
    static func read(_ value: JSONValue?) -> String? { StagValue.dateTime(value) }
}

/// `HH:mm`, `H:mm`, `HH:mm:ss` or `{"value": "HH:mm"}`, as `HH:MM`.
@propertyWrapper struct StagTime: StagField {
    var wrappedValue: String?
    static func read(_ value: JSONValue?) -> String? { StagValue.time(value) }
}

/// A name list: `'RNDr. Jan Novák, Ph.D.' (100), 'C D' (100)`.
@propertyWrapper struct StagNames: StagField {
    var wrappedValue: [String]
    static func read(_ value: JSONValue?) -> [String] { StagValue.quotedNames(StagValue.string(value)) }
}

/// A person object (`ucitel`) as "titles first last, titles".
@propertyWrapper struct StagPerson: StagField {
    var wrappedValue: String?
    static func read(_ value: JSONValue?) -> String? { StagValue.personName(value) }
}

/// Whether STAG sent the field with a value at all (`zppzk_hodnoceni`: a credit before the exam).
@propertyWrapper struct StagPresent: StagField {
    var wrappedValue: Bool
    static func read(_ value: JSONValue?) -> Bool { value != nil && value != .null }
}

/// A JSON number (int or not).
@propertyWrapper struct StagNumber: StagField {
    var wrappedValue: Double?
    static func read(_ value: JSONValue?) -> Double? { value?.doubleValue }
}

/// A list of objects read as `Row`s (what is not an object left out); empty when it is not a list.
@propertyWrapper struct StagList<Row: Decodable & Sendable>: StagField {
    var wrappedValue: [Row]
    static func read(_ value: JSONValue?) -> [Row] { JSONTreeDecoder.rows(value?.arrayValue ?? [], as: Row.self) }
}

/// A nested object read as `Row`, or nil when it is not one.
@propertyWrapper struct StagObject<Row: Decodable & Sendable>: StagField {
    var wrappedValue: Row?
    static func read(_ value: JSONValue?) -> Row? { JSONTreeDecoder.row(value, as: Row.self) }
}
