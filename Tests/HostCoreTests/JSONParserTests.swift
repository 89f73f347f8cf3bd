import Foundation
import HostCore
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(1))) struct JSONParserTests {
    @Test func parsesWhatFoundationParses() throws {
        let documents = [
            #"{"jsonrpc":"2.0","id":1,"method":"ping","params":{"a":[1,2.5,-3e2,true,false,null,"x"]}}"#,
            #"[]"#, #"{}"#, #" [ 1 , { "k" : [ ] } ] "#, #""plain""#, "0", "-0.0", "1E+2", "12345678901234567890",
            #""esc \" \\ \/ \b \f \n \r \t \u00e9 \ud83d\ude00 é 😀""#, #"{"dup":1,"dup":2}"#,
            // ASCII strings (made without validation) beside non-ASCII ones (validated).
            #"{"ascii":"abc","é":"žluťoučký kůň","x":["~\u007f","😀","z"]}"#,
        ]
        for text in documents {
            let ours = try JSONValue.decode(text)
            let theirs = try JSONValue(foundation: JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]))
            #expect(ours.doubleNormalised == theirs.doubleNormalised, "\(text)")
        }
        #expect(try JSONValue.decode("7") == .int(7))
        #expect(try JSONValue.decode("7.0") == .double(7))
        #expect(try JSONValue.decode("true") == .bool(true), "true is not 1")
    }

    @Test func rejectsWhatIsNotJSON() {
        let bad: [[UInt8]] = [
            Array("".utf8), Array("{".utf8), Array("[1,]".utf8), Array("{\"a\":1,}".utf8), Array("01".utf8), Array("1.".utf8),
            Array(".5".utf8), Array("+1".utf8), Array("tru".utf8), Array("nul".utf8), Array("\"unterminated".utf8),
            Array("\"bad \\x escape\"".utf8), Array("\"\\ud800\"".utf8), Array("\"\\udc00\"".utf8), Array("[1] 2".utf8),
            Array("{'a':1}".utf8), [0x22, 0xC3, 0x28, 0x22], [0x22, 0x01, 0x22], [0xFF], Array("NaN".utf8),
            // Invalid UTF-8 after ASCII bytes, a lone continuation byte, an encoded surrogate, a
            // truncated 4-byte sequence, and an invalid key.
            [0x22, 0x61, 0x62, 0xFF, 0x22], [0x22, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xF0, 0x90, 0x80, 0x22],
            [0x7B, 0x22, 0x61, 0xC0, 0xAF, 0x22, 0x3A, 0x31, 0x7D],
            Array(repeating: UInt8(ascii: "["), count: 600) + Array(repeating: UInt8(ascii: "]"), count: 600),
        ]
        for bytes in bad {
            #expect(throws: (any Error).self, "\(String(decoding: bytes, as: UTF8.self))") { try JSONValue.decode(Data(bytes)) }
        }
    }

    @Test func writesCompactSortedLinesThatRoundTrip() throws {
        let value: JSONValue = ["b": "line\nbreak \"quoted\" \u{1} é", "a": [1, 2.5, .null, true], "c": ["nested": [:]], "d": .double(.infinity)]
        let text = value.encodedString()
        #expect(text == #"{"a":[1,2.5,null,true],"b":"line\nbreak \"quoted\" \u0001 é","c":{"nested":{}},"d":null}"#)
        #expect(!text.contains("\n"))
        var expected = value.objectValue!
        expected["d"] = .null
        #expect(try JSONValue.decode(text) == .object(expected))
    }
}

extension JSONValue {
    init(foundation any: Any) throws {
        switch any {
        case is NSNull: self = .null
        case let s as String: self = .string(s)
        case let a as [Any]: self = .array(try a.map(JSONValue.init(foundation:)))
        case let o as [String: Any]: self = .object(try o.mapValues(JSONValue.init(foundation:)))
        case let n as NSNumber:
            if let i = Int64(exactly: n.doubleValue), !"\(n)".contains("."), !"\(n)".contains("e") {
                self = .int(i)
            } else {
                self = .double(n.doubleValue)
            }
        default: throw CocoaError(.coderInvalidValue)
        }
    }

    /// Numbers compared by value (Foundation and we may pick int or double differently for big values).
    var doubleNormalised: JSONValue {
        switch self {
        case .int(let i): .double(Double(i))
        case .array(let a): .array(a.map(\.doubleNormalised))
        case .object(let o): .object(o.mapValues(\.doubleNormalised))
        case .bool(let b): .double(b ? 1 : 0)
        default: self
        }
    }
}

@Suite(.stopsTestHosts) struct ResponseBytesTests {
    /// A response written from its parts is byte for byte the envelope object encoded.
    @Test func responseBytesEqualTheEncodedEnvelope() {
        let ids: [JSONValue] = [.int(1), .int(-7), .string("a\"b\n"), .null]
        let object: JSONValue = .object(["z": .int(1), "a": .array([.bool(true), .null, .double(2.5)]), "é": .string("\u{1F393}\t")])
        let values: [JSONValue] = [.string("pong"), object, .array([]), .null]
        for id in ids {
            for value in values {
                let result = JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "result": value]).encodedBytes()
                let error = JSONValue.object(["jsonrpc": .string("2.0"), "id": id, "error": value]).encodedBytes()
                #expect(JSONValue.responseBytes(id: id, result: value) == result)
                #expect(JSONValue.responseBytes(id: id, error: value) == error)
            }
        }
    }
}
