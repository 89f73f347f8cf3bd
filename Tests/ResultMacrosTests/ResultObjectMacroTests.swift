import ResultMacros
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// What `@ResultObject` refuses, said where the mistake is.
@Suite struct ResultObjectMacroTests {
    static let macros: [String: MacroSpec] = [
        "ResultObject": MacroSpec(type: ResultObjectMacro.self, conformances: ["ResultObjectDescribing", "Encodable"]),
        "OmitWhenNil": MacroSpec(type: ResultFieldMark.self),
    ]

    /// Compares the diagnostics only: what the expansion writes is held by the behaviour tests
    /// (`ResultObjectTests`), which compile and run it, so its text is not repeated here.
    func expand(_ source: String, diagnostics: [DiagnosticSpec]) {
        assertMacroExpansion(
            source, expandedSource: source, diagnostics: diagnostics, macroSpecs: Self.macros,
            failureHandler: { failure in
                guard !failure.message.hasPrefix("Macro expansion did not produce the expected expanded source") else { return }
                Issue.record(Comment(rawValue: failure.message))
            })
    }

    @Test func aPropertyWithoutItsTypeIsRefusedByName() {
        expand(
            """
            @ResultObject
            struct Row {
                let id = 5
            }
            """,
            diagnostics: [DiagnosticSpec(message: "give the type of 'id': the result's schema is read from it", line: 3, column: 9)])
    }

    @Test func omitWhenNilNeedsAnOptional() {
        expand(
            """
            @ResultObject
            struct Row {
                @OmitWhenNil let count: Int
            }
            """,
            diagnostics: [DiagnosticSpec(message: "@OmitWhenNil needs an optional: 'count' is never nil", line: 3, column: 22)])
    }

    @Test func onlyAStruct() {
        expand(
            """
            @ResultObject
            enum Row { case a }
            """,
            diagnostics: [DiagnosticSpec(message: "@ResultObject applies to a struct", line: 1, column: 1)])
    }

    @Test func keysAreFoundationsSnakeCase() {
        #expect(
            ["id", "remindAt", "someURLPath", "singlePilotCATPassengers", "utc2Offset", "ICAO"].map(ResultObjectMacro.snakeCase)
                == ["id", "remind_at", "some_url_path", "single_pilot_cat_passengers", "utc2_offset", "icao"])
    }
}
