/// A strict RFC 8259 parser straight into `JSONValue`.
///
/// Hand-written on purpose: Foundation's `JSONDecoder` can only decode a value of unknown type
/// by trying each type in turn and catching the errors, which made parsing the largest cost of a
/// request; `JSONSerialization` cannot tell `true` from `1` on Linux. This parser reads the bytes
/// once, rejects invalid UTF-8, control characters in strings, lone surrogates, trailing garbage
/// and nesting deeper than `maximumDepth`.
public struct JSONParseError: Error, CustomStringConvertible, Equatable {
    public var offset: Int
    public var reason: String
    public var description: String { "\(reason) at byte \(offset)" }

    public init(offset: Int, reason: String) {
        self.offset = offset
        self.reason = reason
    }
}

struct JSONParser {
    static let maximumDepth = 512

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0
    var depth = 0

    static func parse(_ input: some Collection<UInt8>) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> =
            input.withContiguousStorageIfAvailable { buffer in
                var parser = JSONParser(bytes: buffer)
                return Result { () throws(JSONParseError) in try parser.parseDocument() }
            }
            ?? Array(input).withUnsafeBufferPointer { buffer in
                var parser = JSONParser(bytes: buffer)
                return Result { () throws(JSONParseError) in try parser.parseDocument() }
            }
        return try result.get()
    }

    func fail(_ reason: String) -> JSONParseError { JSONParseError(offset: index, reason: reason) }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw fail("unexpected data after the JSON value") }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw fail("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): return try parseLiteral("true", .bool(true))
        case UInt8(ascii: "f"): return try parseLiteral("false", .bool(false))
        case UInt8(ascii: "n"): return try parseLiteral("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try parseNumber()
        default: throw fail("unexpected character")
        }
    }

    mutating func parseLiteral(_ word: StaticString, _ value: JSONValue) throws(JSONParseError) -> JSONValue {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw fail("unexpected end of input") }
        for i in 0..<count where bytes[index + i] != word.utf8Start[i] { throw fail("invalid literal") }
        index += count
        return value
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw fail("nesting deeper than \(Self.maximumDepth)") }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var object: [String: JSONValue] = [:]
        skipWhitespace()
        // Room for a typical record at once: growing from empty resized each object two or three
        // times, a fifth of a large reply's parse (redact-bench: 12.5 → 10.0 ms).
        if index < bytes.count, bytes[index] != UInt8(ascii: "}") { object.reserveCapacity(6) }
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(object)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':'") }
            index += 1
            skipWhitespace()
            object[key] = try parseValue()
            if try !anotherMember(closing: "}") { return .object(object) }
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        defer { depth -= 1 }
        index += 1
        var array: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(array)
        }
        while true {
            skipWhitespace()
            array.append(try parseValue())
            if try !anotherMember(closing: "]") { return .array(array) }
        }
    }

    /// After an object member or array element: consumes ',' (true: another follows) or the
    /// closing bracket (false).
    mutating func anotherMember(closing: Unicode.Scalar) throws(JSONParseError) -> Bool {
        skipWhitespace()
        guard index < bytes.count else { throw fail("unexpected end of input") }
        if bytes[index] == UInt8(ascii: ",") {
            index += 1
            return true
        }
        guard bytes[index] == UInt8(ascii: closing) else { throw fail("expected ',' or '\(closing)'") }
        index += 1
        return false
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes. ASCII needs no validation, and `String(decoding:)` makes it
        // without the generic `String(validating:)`, whose metadata lookups at run time were a
        // tenth of a large reply's parse (perf); anything else is validated.
        var union: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let slice = UnsafeBufferPointer(rebasing: bytes[start..<index])
                index += 1
                if union < 0x80 { return String(decoding: slice, as: UTF8.self) }
                guard let string = String(validating: slice, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
                return string
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw fail("control character in a string") }
            union |= byte
            index += 1
        }
        var buffer = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                guard let string = String(validating: buffer, as: UTF8.self) else { throw fail("invalid UTF-8 in a string") }
                return string
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { throw fail("unexpected end of input") }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): buffer.append(0x22)
                case UInt8(ascii: "\\"): buffer.append(0x5C)
                case UInt8(ascii: "/"): buffer.append(0x2F)
                case UInt8(ascii: "b"): buffer.append(0x08)
                case UInt8(ascii: "f"): buffer.append(0x0C)
                case UInt8(ascii: "n"): buffer.append(0x0A)
                case UInt8(ascii: "r"): buffer.append(0x0D)
                case UInt8(ascii: "t"): buffer.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800...0xDBFF).contains(scalar) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw fail("lone high surrogate")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw fail("invalid low surrogate") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00...0xDFFF).contains(scalar) {
                        throw fail("lone low surrogate")
                    }
                    guard let unicode = Unicode.Scalar(scalar) else { throw fail("invalid \\u escape") }
                    buffer.append(contentsOf: String(Character(unicode)).utf8)
                default:
                    throw fail("invalid escape")
                }
            default:
                if byte < 0x20 { throw fail("control character in a string") }
                buffer.append(byte)
                index += 1
            }
        }
        throw fail("unterminated string")
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw fail("unexpected end of input") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("invalid \\u escape")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw fail("invalid number") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
        } else {
            throw fail("invalid number")
        }
        var integral = true
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            integral = false
            index += 1
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digits else { throw fail("invalid number") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            integral = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digits = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digits else { throw fail("invalid number") }
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        if integral, let value = Int64(text) { return .int(value) }
        guard let value = Double(text) else { throw fail("invalid number") }
        return .double(value)
    }
}

/// Compact, key-sorted JSON text: never a raw newline, so one value fits one line.
///
/// Hand-written like the parser: it writes `JSONValue` straight into bytes
/// (`JSONSerialization.data` took 18× as long on the 10 000-item result in redact-bench).
enum JSONWriter {
    /// Writes `value`, scrubbing every string and key and replacing every credential member's
    /// string on the way. The scrubber is passed as itself, never boxed: a reply costs no
    /// allocation for it.
    static func write<Scrubber: JSONScrubber>(_ value: JSONValue, into out: inout [UInt8], scrubber: Scrubber) {
        switch value {
        case .string(let s): scrubber.writeString(s, credential: false, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            var first = true
            for item in items {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                write(item, into: &out, scrubber: scrubber)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            // Keys almost never hold a secret: the members are written in the order of their own
            // keys until one needs scrubbing, and only then is the object written again, sorted
            // by its keys as written (a scrubbed key sorts as its placeholder).
            let start = out.count
            out.append(UInt8(ascii: "{"))
            var first = true
            for (key, member) in object.sorted(by: { $0.key < $1.key }) {
                if scrubber.scrubbed(key) != nil {
                    out.removeSubrange(start...)
                    return writeMembers(object, into: &out, scrubber: scrubber)
                }
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                writeMember(key, written: key, member, into: &out, scrubber: scrubber)
            }
            out.append(UInt8(ascii: "}"))
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): writeInteger(i, into: &out)
        case .double(let d):
            if d.isFinite {
                if d == d.rounded(), abs(d) < 1e15 { writeInteger(Int64(d), into: &out) } else { out.append(contentsOf: "\(d)".utf8) }
            } else {
                out.append(contentsOf: "null".utf8)
            }
        }
    }

    private static func writeMembers<Scrubber: JSONScrubber>(_ object: [String: JSONValue], into out: inout [UInt8], scrubber: Scrubber) {
        out.append(UInt8(ascii: "{"))
        var first = true
        let members = object.map { (written: scrubber.scrubbed($0.key) ?? $0.key, key: $0.key, member: $0.value) }
        for (written, key, member) in members.sorted(by: { $0.written < $1.written }) {
            if !first { out.append(UInt8(ascii: ",")) }
            first = false
            writeMember(key, written: written, member, into: &out, scrubber: scrubber)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// A credential member's string is written as the placeholder (the check uses the key as given).
    private static func writeMember<Scrubber: JSONScrubber>(
        _ key: String, written: String, _ member: JSONValue, into out: inout [UInt8], scrubber: Scrubber
    ) {
        writeString(written, into: &out)
        out.append(UInt8(ascii: ":"))
        if case .string(let s) = member {
            scrubber.writeString(s, credential: scrubber.isCredentialKey(key), into: &out)
        } else {
            write(member, into: &out, scrubber: scrubber)
        }
    }

    /// Writes `value` as it is: the one writer, specialized for a scrubber that scrubs nothing.
    static func write(_ value: JSONValue, into out: inout [UInt8]) {
        write(value, into: &out, scrubber: NoScrubbing())
    }

    /// For a value that is written as it is (no secrets to scrub): the writers specialize to it.
    struct NoScrubbing: JSONScrubber {
        var placeholder: String { "" }
        func isCredentialKey(_ key: String) -> Bool { false }
        func scrubbed(_ text: String) -> String? { nil }
        var scrubsText: Bool { false }
    }

    /// Decimal digits without an intermediate String.
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        if magnitude < 10 {
            out.append(UInt8(ascii: "0") &+ UInt8(magnitude))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var count = 0
            while magnitude > 0 {
                digits[19 - count] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
                count += 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[(20 - count)...]))
        }
    }

    static let hex = Array("0123456789abcdef".utf8)

    static func writeString(_ s: String, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var s = s
        // Native strings are contiguous UTF-8: runs that need no escape are copied whole.
        s.withUTF8 { bytes in
            var runStart = 0
            for (i, byte) in bytes.enumerated() where byte < 0x20 || byte == 0x22 || byte == 0x5C {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<i]))
                runStart = i + 1
                out.append(0x5C)
                switch byte {
                case 0x22: out.append(0x22)
                case 0x5C: out.append(0x5C)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default: out.append(contentsOf: [UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
                }
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
        }
        out.append(UInt8(ascii: "\""))
    }
}
