import Foundation
import HostCore
import Testing

/// The writer for large typed results: its bytes must be what `JSONStreamEncoder` writes for the
/// same members, scrubbed the same way, with times written digit by digit.
struct JSONDirectWriterTests {
    struct Row: Encodable, Sendable {
        var id: String
        var title: String
        var count: Int
        var missing: String?
        var flags: [Bool]
        var at: String
        var day: String
    }

    static let rows = [
        Row(id: "a", title: "quote \" and\nline", count: -12, missing: nil, flags: [true, false], at: "2026-11-26T09:05:07Z", day: "2026-02-03"),
        Row(id: "ž", title: "", count: 0, missing: "m", flags: [], at: "0999-01-01T00:00:00Z", day: "9999-12-31"),
    ]

    static func written(_ rows: [Row], scrubber: some JSONScrubber) -> [UInt8] {
        var out = Array("prefix:".utf8)
        JSONDirectWriter.write(into: &out, scrubber: scrubber) { w in
            w.beginArray()
            for row in rows {
                w.element()
                w.beginObject()
                w.key("id")
                w.string(row.id)
                w.key("title")
                w.string(row.title)
                w.key("count")
                w.int(row.count)
                w.key("missing")
                w.string(row.missing)
                w.key("flags")
                w.beginArray()
                for flag in row.flags {
                    w.element()
                    w.bool(flag)
                }
                w.endArray()
                let at = row.at.split(whereSeparator: { "-T:Z".contains($0) }).compactMap { Int($0) }
                w.key("at")
                w.dateTime(year: at[0], month: at[1], day: at[2], hour: at[3], minute: at[4], second: at[5], utc: true)
                let day = row.day.split(separator: "-").compactMap { Int($0) }
                w.key("day")
                w.dateTime(year: day[0], month: day[1], day: day[2])
                w.endObject()
            }
            w.endArray()
        }
        return out
    }

    @Test func theBytesAreWhatTheStreamEncoderWrites() throws {
        let direct = Self.written(Self.rows, scrubber: SecretRedactor().scrubber())
        #expect(Array(direct.prefix(7)) == Array("prefix:".utf8), "appended to what was there")
        var stream: [UInt8] = []
        try JSONStreamEncoder.write(Self.rows.map(Nullable.init), into: &stream, scrubber: SecretRedactor().scrubber())
        #expect(String(decoding: direct.dropFirst(7), as: UTF8.self) == String(decoding: stream, as: UTF8.self))
    }

    /// Known secrets are scrubbed from strings and from the times the writer makes (a secret
    /// may be digits), and a credential key's string is the placeholder, keys cached or not.
    @Test func secretsAndCredentialKeysAreScrubbed() throws {
        let redactor = SecretRedactor()
        redactor.remember("0999")
        redactor.remember("quote")
        let out = Self.written(Self.rows, scrubber: redactor.scrubber())
        let value = try #require(try JSONValue.decode(bytes: Array(out.dropFirst(7))).arrayValue)
        let placeholder = SecretRedactor.placeholder
        #expect(value[0]["title"] == .string("\(placeholder) \" and\nline"))
        #expect(value[1]["at"] == .string("\(placeholder)-01-01T00:00:00Z"))
        #expect(value[1]["day"] == "9999-12-31")

        var credentials: [UInt8] = []
        JSONDirectWriter.write(into: &credentials, scrubber: redactor.scrubber()) { w in
            w.beginArray()
            for _ in 0..<2 {
                w.element()
                w.beginObject()
                w.key("token")
                w.string("s3cret-value")
                w.key("api_key")
                w.dateTime(year: 2026, month: 1, day: 2)
                w.key("name")
                w.string("plain")
                w.dataKey("password")
                w.string("hunter22")
                w.dataKey("empty_password_is_kept")
                w.string("")
                w.endObject()
            }
            w.endArray()
        }
        let hidden = try #require(try JSONValue.decode(bytes: credentials).arrayValue)
        #expect(hidden.count == 2)
        for index in 0..<2 {
            #expect(
                hidden[index] == [
                    "token": .string(placeholder), "api_key": .string(placeholder), "name": "plain", "password": .string(placeholder),
                    "empty_password_is_kept": "",
                ])
        }
    }

    /// A long list written in parts at once is byte for byte the list written in one go, scrubbed
    /// the same in every part, and the members after it follow on.
    @Test func aListWrittenInPartsIsTheListWrittenWhole() throws {
        let redactor = SecretRedactor()
        redactor.remember("quote")
        let many = (0..<(3 * JSONDirectWriter.elementsPerPart + 7)).map { index in
            Row(id: "id-\(index)", title: index % 3 == 0 ? "quote \(index)" : "t\(index)", count: index, missing: nil, flags: [], at: "", day: "")
        }
        func written(inParts: Bool) -> [UInt8] {
            var out: [UInt8] = []
            JSONDirectWriter.write(into: &out, scrubber: redactor.scrubber()) { w in
                w.beginObject()
                let write: @Sendable (Row, JSONDirectWriter) -> Void = { row, w in
                    w.beginObject()
                    w.member("id", row.id)
                    w.member("title", row.title)
                    w.member("password", row.id)
                    w.endObject()
                }
                if inParts {
                    w.member("rows", eachInParts: many, bytesPerElement: 10, write)
                } else {
                    w.member("rows", each: many) { write($0, w) }
                }
                w.member("after", true)
                w.endObject()
            }
            return out
        }
        let whole = written(inParts: false)
        #expect(String(decoding: written(inParts: true), as: UTF8.self) == String(decoding: whole, as: UTF8.self))
        let value = try JSONValue.decode(bytes: whole)
        #expect(value["rows"]?.arrayValue?.count == many.count)
        let rows = try #require(value["rows"]?.arrayValue)
        #expect(rows[3]["title"] == .string("\(SecretRedactor.placeholder) 3"))
        #expect(rows[3]["password"] == .string(SecretRedactor.placeholder))
    }

    /// More distinct keys than the cache keeps are still written right.
    @Test func manyKeysOutgrowTheCacheAndStayRight() throws {
        let keys: [StaticString] = [
            "k00", "k01", "k02", "k03", "k04", "k05", "k06", "k07", "k08", "k09", "k10", "k11", "k12", "k13", "k14", "k15", "k16", "k17", "k18",
            "k19",
            "k20", "k21", "k22", "k23", "k24", "k25", "k26", "k27", "k28", "k29", "k30", "k31", "k32", "k33", "k34", "k35", "k36", "k37", "k38",
            "k39",
            "k40", "k41", "k42", "k43", "k44", "k45", "k46", "k47", "k48", "k49", "k50", "k51", "k52", "k53", "k54", "k55", "k56", "k57", "k58",
            "k59",
            "k60", "k61", "k62", "k63", "k64", "k65", "k66", "k67", "k68", "k69",
        ]
        var out: [UInt8] = []
        JSONDirectWriter.write(into: &out, scrubber: SecretRedactor().scrubber()) { w in
            w.beginArray()
            for _ in 0..<3 {
                w.element()
                w.beginObject()
                for (index, key) in keys.enumerated() {
                    w.key(key)
                    w.int(index)
                }
                w.endObject()
            }
            w.endArray()
        }
        let expected = JSONValue.object(Dictionary(uniqueKeysWithValues: keys.enumerated().map { ("\($0.element)", JSONValue.count($0.offset)) }))
        #expect(try JSONValue.decode(bytes: out) == [expected, expected, expected])
    }

    @Test func instantsAreWhatISO8601Writes() {
        for date in [
            Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_795_000_000.75), Date(timeIntervalSince1970: -86_401),
            Date(timeIntervalSince1970: 300_000_000_000),
        ] {
            var out: [UInt8] = []
            JSONDirectWriter.write(into: &out, scrubber: SecretRedactor().scrubber()) { $0.instant(date) }
            #expect(String(decoding: out, as: UTF8.self) == "\"\(ISO8601.string(date))\"")
        }
        var out: [UInt8] = []
        JSONDirectWriter.write(into: &out, scrubber: SecretRedactor().scrubber()) { $0.instant(nil as Date?) }
        #expect(out == Array("null".utf8))
    }
}

/// The stream encoder's form of a row: an absent optional written as null, as the writer does.
private struct Nullable: Encodable {
    let row: JSONDirectWriterTests.Row
    init(_ row: JSONDirectWriterTests.Row) { self.row = row }

    enum Keys: String, CodingKey { case id, title, count, missing, flags, at, day }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(row.id, forKey: .id)
        try c.encode(row.title, forKey: .title)
        try c.encode(row.count, forKey: .count)
        if let missing = row.missing { try c.encode(missing, forKey: .missing) } else { try c.encodeNil(forKey: .missing) }
        try c.encode(row.flags, forKey: .flags)
        try c.encode(row.at, forKey: .at)
        try c.encode(row.day, forKey: .day)
    }
}

/// Errors as the sentences people read.
struct ErrorTextTests {
    struct Plain: Error {}

    @Test func everyKindOfErrorReadsAsASentence() throws {
        #expect(ErrorText.sentence(RPCError.internalError("boom")) == "Internal error: boom")
        #expect("\(RPCError.internalError("boom"))" == "Internal error: boom", "interpolation is the message too")
        #expect(String(reflecting: RPCError.internalError("boom")).hasPrefix("RPCError(code: -32603"), "the debug form stays for debugging")
        let missing = ErrorText.sentence(CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "/nowhere/x"]))
        #expect(!missing.contains("Error Domain="), "\(missing)")
        #expect(!ErrorText.sentence(NSError(domain: NSPOSIXErrorDomain, code: 2)).contains("Error Domain="))
        #expect(ErrorText.sentence(CancellationError()) == "it was cancelled")
        struct Row: Decodable { var n: Int }
        let decoding = try #require(throws: DecodingError.self) { try JSONDecoder().decode(Row.self, from: Data(#"{"n":"x"}"#.utf8)) }
        #expect(ErrorText.sentence(decoding).hasPrefix("n: "), "\(ErrorText.sentence(decoding))")
        #expect(ErrorText.sentence(Plain()) == "Plain()")
    }
}
