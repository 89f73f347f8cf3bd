import AssistantRPC
import PluginKit
import Testing

// Declared at file scope: the macro's extension is top-level, where a sibling nested in the
// suite would have to be named in full.
enum SampleMode: String, CaseIterable, Encodable, ResultDescribing { case fast, careful }

@ResultObject
struct SampleGroup: Sendable {
    /// how many were counted
    let counted: Int
    let someURLPath: String
}

@ResultObject("one row, for the test")
struct SampleRow: CallResult {
    let id: String
    let mode: SampleMode
    let note: String?
    @OmitWhenNil let extra: Int?
    @OmitWhenNil let maybeNull: Int??
    @Schema(.dateTime) let changedAt: String?
    @Key("in") let inTime: String
    @Flatten let group: SampleGroup
    @NotInResult let hidden: Int
    @InResult var doubled: Int { hidden * 2 }
    var notWritten: Int { 7 }
}

/// `@ResultObject`: what a result type declares is what it writes and what its schema says.
@Suite struct ResultObjectTests {
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
            id: "b", mode: .fast, note: "n", extra: 5, maybeNull: nil, changedAt: nil, inTime: "", group: SampleGroup(counted: 0, someURLPath: ""),
            hidden: 0)
        let second = try other.jsonValue().objectValue ?? [:]
        #expect(second["extra"] == 5 && second["note"] == "n" && second["changed_at"] == .null)
        #expect(second["maybe_null"] == nil, "left out when missing, not written as null")
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
        #expect(properties["changed_at"] == JSONSchema.dateTime.nullable.value)
        #expect(properties["counted"] == JSONSchema.integer.described("how many were counted").value)
        // What it writes fits what it declares, checked by the same check every call's result meets.
        #expect(SampleRow.resultSchema.problems(in: try Self.row.jsonValue()).isEmpty)
    }

    @Test func eitherShapeIsDeclaredAsAnyOf() throws {
        typealias Outcome = OneOf<SampleGroup, AccountFailed>
        let failed = Outcome.second(AccountFailed(name: "work", RPCError(code: -32010, message: "down")))
        let written = try JSONValue.decode(bytes: JSONStreamEncoder.encode(failed))
        #expect(written == .object(["name": "work", "error": "down", "code": -32010]))
        #expect(Outcome.resultSchema == .anyOf([SampleGroup.resultSchema, AccountFailed.resultSchema]))
    }
}
