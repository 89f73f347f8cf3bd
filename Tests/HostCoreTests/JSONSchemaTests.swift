import AssistantRPC
import Testing

@Suite struct JSONSchemaTests {
    static let task = JSONSchema.object([
        "id": .string, "due?": JSONSchema.dateTime.nullable, "day?": .date, "state": .enumeration(["open", "done"]),
        "tags": .array(.string), "counts?": .map(.integer), "extra?": JSONSchema.object(["a": .integer]).open,
    ])

    @Test func aResultThatFitsHasNoProblems() {
        let value: JSONValue = [
            "id": "t1", "due": nil, "day": "2026-02-28", "state": "open", "tags": ["a", "b"], "counts": ["x": 1, "y": 2],
            "extra": ["a": 1, "anything": [1, 2]],
        ]
        #expect(Self.task.problems(in: value) == [])
        #expect(Self.task.problems(in: ["id": "t2", "state": "done", "tags": []]) == [], "optional properties may be absent")
    }

    @Test func eachKindOfMisfitIsNamedWithItsPath() {
        let cases: [(JSONValue, String)] = [
            (["state": "open", "tags": []], "$: lacks required 'id'"),
            (["id": 1, "state": "open", "tags": []], "$.id: must be string, got an integer"),
            (["id": "t", "state": "late", "tags": []], "$.state: must be one of \"open\", \"done\", got \"late\""),
            (["id": "t", "state": "open", "tags": ["a", 2]], "$.tags[1]: must be string, got an integer"),
            (["id": "t", "state": "open", "tags": [], "due": "tomorrow"], "$.due: must be a date-time, got \"tomorrow\""),
            (["id": "t", "state": "open", "tags": [], "day": "2026-02-30"], "$.day: must be a date, got \"2026-02-30\""),
            (["id": "t", "state": "open", "tags": [], "counts": ["x": "1"]], "$.counts.x: must be integer, got a string"),
            (["id": "t", "state": "open", "tags": [], "colour": "red"], "$: has 'colour', which its schema does not declare"),
        ]
        for (value, problem) in cases {
            #expect(Self.task.problems(in: value) == [problem], "\(value.encodedString())")
        }
    }

    @Test func publishedObjectsStayOpenButTheCheckIsStrictUnlessAsked() {
        let extra: JSONValue = ["id": "t", "state": "open", "tags": [], "colour": "red"]
        #expect(Self.task.problems(in: extra, strict: false) == [])
        #expect(Self.task.value["additionalProperties"] == nil)
        #expect(Self.task.value["required"] == ["id", "state", "tags"])
    }

    @Test func nullableAndOneOf() {
        let either = JSONSchema.oneOf([.object(["ok": .integer]), .object(["error": .string])])
        #expect(either.problems(in: ["ok": 1]) == [])
        #expect(either.problems(in: ["error": "x"]) == [])
        #expect(either.problems(in: ["ok": "1"]) == ["$: an object fits 0 of the 2 choices"])
        #expect(JSONSchema.integer.nullable.problems(in: .null) == [])
        #expect(JSONSchema.integer.problems(in: .null) == ["$: must be integer, got null"])
        #expect(JSONSchema.enumeration(["a"]).nullable.problems(in: .null) == [])
        #expect(JSONSchema.constant("flight").problems(in: "fstd") == ["$: must be \"flight\", got \"fstd\""])
    }

    @Test func helpOutlinesTheRequiredFieldsInOrderThenTheOptionalOnes() {
        let schema = JSONSchema.object([
            "id": .string, "state": JSONSchema.enumeration(["open", "done"]).described("where it stands"), "due?": JSONSchema.dateTime.nullable,
            "rows": .array(.object(["n": .integer])),
        ])
        #expect(
            JSONSchema.outline(schema.value) == [
                "object", "  id: string", "  state: \"open\" | \"done\"  (where it stands)", "  rows: [object]", "    n: integer",
                "  due?: string (date-time) | null",
            ])
    }
}
