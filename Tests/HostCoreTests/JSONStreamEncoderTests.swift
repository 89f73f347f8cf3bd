import Foundation
import HostCore
import Testing

/// Typed results are written straight into the reply: the bytes must be the JSON Foundation's
/// encoder would write (as a value), scrubbed as the `JSONValue` writer scrubs.
@Suite(.stopsTestHosts)
struct JSONStreamEncoderTests {
    struct Leaf: Codable, Equatable {
        var name: String
        var count: Int
        var ratio: Double
        var ok: Bool
        var maybe: String?
    }

    struct Tree: Codable, Equatable {
        var id: String
        var leaves: [Leaf]
        var byName: [String: Leaf]
        var matrix: [[Int8]]
        var big: UInt64
        var small: Float
        var nothing: [String]
        var inner: Inner
        var tags: Set<String>
        var free: JSONValue

        struct Inner: Codable, Equatable {
            var note: String
            var empty: Empty
        }
        struct Empty: Codable, Equatable {}
    }

    static let tree = Tree(
        id: "t \"quoted\"\n",
        leaves: [Leaf(name: "a", count: -3, ratio: 0.25, ok: true, maybe: nil), Leaf(name: "ž", count: 0, ratio: 2, ok: false, maybe: "m")],
        byName: ["x": Leaf(name: "x", count: 1, ratio: 1.5, ok: true, maybe: "y")], matrix: [[1, -2], [], [127]], big: UInt64.max, small: 0.5,
        nothing: [], inner: Tree.Inner(note: "tab\there", empty: Tree.Empty()), tags: ["one"], free: ["k": [1, "two", .null]])

    @Test func theBytesAreTheValueFoundationWrites() throws {
        let ours = try JSONValue.decode(bytes: try JSONStreamEncoder.encode(Self.tree))
        let foundation = try JSONValue.decode(try JSONEncoder().encode(Self.tree))
        #expect(ours == foundation)
        // And they decode back to the same value.
        #expect(try JSONDecoder().decode(Tree.self, from: Data(try JSONStreamEncoder.encode(Self.tree))) == Self.tree)
    }

    @Test func leavesAndEmptiesAtTheTop() throws {
        #expect(try JSONStreamEncoder.encode("a\u{1}b") == Array(#""a\u0001b""#.utf8))
        #expect(try JSONStreamEncoder.encode(42) == Array("42".utf8))
        #expect(try JSONStreamEncoder.encode([Int]()) == Array("[]".utf8))
        #expect(try JSONStreamEncoder.encode(Tree.Empty()) == Array("{}".utf8))
        #expect(try JSONStreamEncoder.encode([Tree.Empty(), Tree.Empty()]) == Array("[{},{}]".utf8))
        #expect(try JSONStreamEncoder.encode(Optional<Int>.none) == Array("null".utf8))
        #expect(try JSONStreamEncoder.encode(Double.infinity) == Array("null".utf8))
    }

    /// Members are written in the order the value encodes them (synthesized: declaration order).
    @Test func membersKeepTheirOrder() throws {
        let leaf = Leaf(name: "n", count: 1, ratio: 0.5, ok: true, maybe: "z")
        #expect(String(decoding: try JSONStreamEncoder.encode(leaf), as: UTF8.self) == #"{"name":"n","count":1,"ratio":0.5,"ok":true,"maybe":"z"}"#)
    }

    struct Credentials: Encodable, CallResult {
        var password: String
        var apiKey: String
        var note: String
        var list: [String]
    }

    /// The same scrubbing as the `JSONValue` writer: credential members' strings are hidden, known
    /// secrets are replaced in every string and key.
    @Test func typedResultsAreScrubbedAsValuesAre() throws {
        let redactor = SecretRedactor()
        redactor.remember("abcd1234")
        let typed = Credentials(password: "hunter2", apiKey: "", note: "has abcd1234 inside", list: ["abcd1234", "ok"])
        var out: [UInt8] = []
        try JSONStreamEncoder.write(typed, into: &out, scrubber: redactor.scrubber())
        let value = try JSONValue(encoding: typed)
        #expect(try JSONValue.decode(bytes: out) == redactor.redact(value))
        #expect(try JSONValue.decode(bytes: out)["password"] == .string(SecretRedactor.placeholder))
        #expect(try JSONValue.decode(bytes: out)["apiKey"] == "", "an empty credential stays empty")
        // And in a reply, through the `CallResult` path the dispatcher uses.
        let reply = JSONValue.responseBytes(id: 7, result: typed, scrubbing: redactor.scrubber())
        #expect(try JSONValue.decode(bytes: reply) == ["id": 7, "jsonrpc": "2.0", "result": redactor.redact(value)])
    }

    /// A type that goes back to a container after a later member began cannot be written in
    /// order: it is an error, never wrong JSON.
    struct BackAndForth: Encodable {
        enum Keys: String, CodingKey { case a, b, c }
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            var first = outer.nestedContainer(keyedBy: Keys.self, forKey: .a)
            try outer.encode(1, forKey: .b)
            try first.encode(2, forKey: .c)
        }
    }

    /// The same, when a sibling's container has taken the left one's place at its depth.
    struct BackToAReplacedContainer: Encodable {
        enum Keys: String, CodingKey { case a, b, c }
        func encode(to encoder: any Encoder) throws {
            var outer = encoder.container(keyedBy: Keys.self)
            var first = outer.nestedContainer(keyedBy: Keys.self, forKey: .a)
            var second = outer.nestedContainer(keyedBy: Keys.self, forKey: .b)
            try second.encode(1, forKey: .c)
            try first.encode(2, forKey: .c)
        }
    }

    @Test func goingBackToALeftContainerIsRefused() {
        #expect(throws: EncodingError.self) { try JSONStreamEncoder.encode(BackAndForth()) }
        #expect(throws: EncodingError.self) { try JSONStreamEncoder.encode(BackToAReplacedContainer()) }
    }
}
