import AssistantRPC
import Foundation
import PluginKit
import Testing

/// `ResultObject`: what a result type declares is what it writes and what its schema says.
@Suite struct ResultObjectTests {
    enum SampleMode: String, CaseIterable, Encodable, ResultDescribing { case fast, careful }

    struct SampleGroup: ResultObject, Sendable {
        let counted: Int
        let someURLPath: String

        static let members = ResultMembers<Self>(.field("counted", \.counted, "how many were counted"), .field("some_url_path", \.someURLPath))
    }

    struct SampleRow: CallResult, ResultObject {
        let id: String
        let mode: SampleMode
        let note: String?
        let extra: Int?
        let maybeNull: Int??
        let changedAt: String?
        let inTime: String
        let group: SampleGroup
        let hidden: Int
        var doubled: Int { hidden * 2 }

        static let members = ResultMembers<Self>(
            .field("id", \.id), .field("mode", \.mode), .field("note", \.note), .omittedWhenNil("extra", \.extra),
            .omittedWhenNil("maybe_null", \.maybeNull), .field("changed_at", \.changedAt, .dateTime), .field("in", \.inTime),
            .flattened(\.group), .field("doubled", \.doubled), described: "one row, for the test")
    }

    /// Read back through the same members (the offline cache's copy).
    struct StoredRow: StoredResultObject, Equatable {
        struct Place: StoredResultObject, Equatable {
            var room = ""
            var floor: Int?

            static let members = ResultMembers<Self>(.field("room", \.room), .field("floor", \.floor))
        }

        var id = ""
        var note: String?
        var items: Int??
        var seen: [String] = []
        var place = Place()
        var at = Date(timeIntervalSince1970: 0)
        var until: Date?
        var noteLength: Int { note?.count ?? 0 }

        static let members = ResultMembers<Self>(
            .field("id", \.id), .field("note", \.note), .omittedWhenNil("items", \.items), .field("seen_by", \.seen), .flattened(\.place),
            .instant("at", \.at), .instant("until", \.until), .field("note_length", \.noteLength))
    }

    static let row = SampleRow(
        id: "a", mode: .careful, note: nil, extra: nil, maybeNull: .some(nil), changedAt: "2035-01-08T10:00:00Z", inTime: "10:00",
        group: SampleGroup(counted: 3, someURLPath: "/x"), hidden: 21)

    @Test func itWritesWhatItDeclaresAndNullsOneWay() throws {
        let written = try Self.row.jsonValue()
        #expect(
            written
                == .object([
                    "id": "a", "mode": "careful", "note": .null, "maybe_null": .null, "changed_at": "2035-01-08T10:00:00Z", "in": "10:00",
                    "counted": 3, "some_url_path": "/x", "doubled": 42,
                ]))
        let other = SampleRow(
            id: "b", mode: .fast, note: "n", extra: 5, maybeNull: nil, changedAt: nil, inTime: "",
            group: SampleGroup(counted: 0, someURLPath: ""), hidden: 0)
        let second = try other.jsonValue().objectValue ?? [:]
        #expect(second["extra"] == 5 && second["note"] == "n" && second["changed_at"] == .null)
        #expect(second["maybe_null"] == nil, "left out when missing, not written as null")
        #expect(!second.keys.contains("hidden"), "a property the members do not list stays out")
    }

    @Test func membersAreWrittenInTheirDeclaredOrder() throws {
        let bytes = try JSONStreamEncoder.encode(Self.row)
        let text = String(decoding: bytes, as: UTF8.self)
        let keys = [
            "\"id\"", "\"mode\"", "\"note\"", "\"maybe_null\"", "\"changed_at\"", "\"in\"", "\"counted\"", "\"some_url_path\"", "\"doubled\"",
        ]
        let positions = keys.map { text.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
    }

    @Test func itsSchemaComesFromTheDeclaration() throws {
        let schema = SampleRow.resultSchema.json
        #expect(schema["description"] == "one row, for the test")
        #expect(schema["required"] == ["id", "mode", "note", "changed_at", "in", "counted", "some_url_path", "doubled"])
        let properties = try #require(schema["properties"]?.objectValue)
        #expect(Set(properties.keys) == ["id", "mode", "note", "extra", "maybe_null", "changed_at", "in", "counted", "some_url_path", "doubled"])
        #expect(properties["mode"] == JSONSchema.enumeration(SampleMode.self).value)
        #expect(properties["note"] == JSONSchema.string.nullable.value)
        #expect(properties["extra"] == JSONSchema.integer.value)
        #expect(properties["maybe_null"] == JSONSchema.integer.nullable.value)
        #expect(properties["changed_at"] == JSONSchema.dateTime.nullable.value, "a declared schema of an optional property allows null")
        #expect(properties["counted"] == JSONSchema.integer.described("how many were counted").value)
        // What it writes fits what it declares, checked by the same check every call's result meets.
        #expect(SampleRow.resultSchema.problems(in: try Self.row.jsonValue()).isEmpty)
    }

    @Test func aStoredResultReadsBackWhatItWrote() throws {
        var row = StoredRow()
        row.id = "x"
        row.items = .some(nil)
        row.seen = ["a", "b"]
        row.place = .init(room: "UP-105", floor: 1)
        var absent = row
        absent.items = nil
        absent.note = "n"
        for value in [row, StoredRow(), absent] {
            let bytes = try JSONStreamEncoder.encode(value)
            #expect(try JSONDecoder().decode(StoredRow.self, from: Data(bytes)) == value)
        }
        absent.until = Date(timeIntervalSince1970: 2_051_222_400)
        let bytes = try JSONStreamEncoder.encode(absent)
        #expect(try JSONDecoder().decode(StoredRow.self, from: Data(bytes)) == absent)
        let written = try JSONValue.decode(bytes: JSONStreamEncoder.encode(row))
        #expect(
            written
                == .object([
                    "id": "x", "note": .null, "items": .null, "seen_by": ["a", "b"], "room": "UP-105", "floor": 1, "at": "1970-01-01T00:00:00Z",
                    "until": .null, "note_length": 0,
                ]))
        #expect(StoredRow.resultSchema.json["properties"]?["until"] == JSONSchema.dateTime.nullable.value)
        // An instant that is not one does not read back.
        let badInstant = #"{"id":"x","note":null,"seen_by":[],"room":"","floor":null,"at":"tomorrow","until":null}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StoredRow.self, from: Data(badInstant.utf8)) }
        // A stored copy missing a member it always writes does not read back (the cache then counts it as no copy).
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StoredRow.self, from: Data(#"{"id":"x","note":null}"#.utf8)) }
    }

    /// A stored member declared `let` would be left as `init()` made it: reading it back fails and
    /// names it, while a computed member (nothing to restore) reads back as before.
    struct StoredWithALet: StoredResultObject {
        var id = ""
        let kind = "fixed"
        var idLength: Int { id.count }

        static let members = ResultMembers<Self>(.field("id", \.id), .field("kind", \.kind), .field("id_length", \.idLength))
    }

    struct StoredWithComputed: StoredResultObject {
        var id = ""
        var idLength: Int { id.count }

        static let members = ResultMembers<Self>(.field("id", \.id), .field("id_length", \.idLength))
    }

    @Test func aStoredLetIsNotSilentlyLeftUnread() throws {
        let copy = Data(#"{"id":"x","kind":"other","id_length":1}"#.utf8)
        #expect {
            try JSONDecoder().decode(StoredWithALet.self, from: copy)
        } throws: { error in
            guard case DecodingError.dataCorrupted(let context) = error else { return false }
            return context.debugDescription == "kind is a stored let and cannot be read back; declare it var"
        }
        #expect(try JSONDecoder().decode(StoredWithComputed.self, from: copy).id == "x")
    }

    @Test func eitherShapeIsDeclaredAsAnyOf() throws {
        typealias Outcome = OneOf<SampleGroup, AccountFailed>
        let failed = Outcome.second(AccountFailed(name: "work", RPCError(code: -32010, message: "down")))
        let written = try JSONValue.decode(bytes: JSONStreamEncoder.encode(failed))
        #expect(written == .object(["name": "work", "error": "down", "code": -32010]))
        #expect(Outcome.resultSchema == .anyOf([SampleGroup.resultSchema, AccountFailed.resultSchema]))
    }

    @Test func aCommandTakesItsSchemaFromItsResultType() {
        struct Service: Sendable {}
        let command = PluginCommand<Service>("sample", "A sample", effect: .read) { _, _, _ in Self.row }
        #expect(command.descriptor.result == SampleRow.resultSchema)
    }
}
