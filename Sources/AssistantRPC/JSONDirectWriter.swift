import Foundation

/// Writes a typed result's members straight into the reply bytes, scrubbed as `JSONWriter` and
/// `JSONStreamEncoder` scrub: for the few results that are large and hot (a month's agenda is
/// 20 000 rows, 8 MB), where going through `Encoder` per field was two thirds of the call.
///
/// Written by hand because no library writes JSON without an `Encoder` in between. A result
/// using it conforms to `CallResult` with its own `writeJSON`, and writes its members in order:
///
///     w.beginObject()
///     w.key("id"); w.string(task.id)
///     w.endObject()
///
/// Keys are static strings: each is scrubbed, escaped and checked for a credential name once per
/// reply and then copied as bytes. A credential key's non-empty string is written as the
/// placeholder, as the other writers do.
public final class JSONDirectWriter {
    @exclusivity(unchecked) public private(set) var bytes: [UInt8]
    let scrubber: any JSONScrubber
    /// False when the scrubber knows no secret (the common case): text made here (times,
    /// numbers) is then written as it is, and strings skip the scan.
    let scrubsText: Bool
    /// Whether the container being written has a member already (one flag is enough: after any
    /// container closes, its parent has a member).
    @exclusivity(unchecked) private var hasMember = false
    @exclusivity(unchecked) private var keyIsCredential = false

    /// Written keys by their static text's address: open addressing, 64 slots.
    private struct WrittenKey {
        var address: UnsafeRawPointer?
        var written: [UInt8] = []
        var credential = false
    }
    @exclusivity(unchecked) private var keys = [WrittenKey](repeating: WrittenKey(), count: 64)
    @exclusivity(unchecked) private var keysKept = 0

    public init(bytes: [UInt8], scrubber: some JSONScrubber) {
        self.bytes = bytes
        self.scrubber = scrubber
        scrubsText = scrubber.scrubsText
    }

    /// Writes `body`'s members into `out` (appended).
    public static func write(into out: inout [UInt8], scrubber: some JSONScrubber, _ body: (JSONDirectWriter) throws -> Void) rethrows {
        let writer = JSONDirectWriter(bytes: out, scrubber: scrubber)
        out = []
        defer { out = writer.bytes }
        try body(writer)
    }

    /// Room for `count` more bytes (a large result knows about how much it writes: growing an
    /// 8 MB reply by doubling copied it several times).
    public func reserve(_ count: Int) {
        bytes.reserveCapacity(bytes.count + count)
    }

    private func separate() {
        if hasMember { bytes.append(UInt8(ascii: ",")) }
        hasMember = true
    }

    public func beginObject() {
        bytes.append(UInt8(ascii: "{"))
        hasMember = false
    }

    public func endObject() {
        bytes.append(UInt8(ascii: "}"))
        hasMember = true
    }

    public func beginArray() {
        bytes.append(UInt8(ascii: "["))
        hasMember = false
    }

    public func endArray() {
        bytes.append(UInt8(ascii: "]"))
        hasMember = true
    }

    /// Starts an array's element (the comma before all but the first).
    public func element() {
        separate()
        keyIsCredential = false
    }

    /// Starts an object's member.
    public func key(_ name: StaticString) {
        separate()
        guard name.hasPointerRepresentation else { return writeKey(name.description) }
        let address = UnsafeRawPointer(name.utf8Start)
        var slot = (Int(bitPattern: address) >> 3) & 63
        while let kept = keys[slot].address {
            if kept == address {
                bytes.append(contentsOf: keys[slot].written)
                keyIsCredential = keys[slot].credential
                return
            }
            slot = (slot + 1) & 63
        }
        let text = name.description
        var written: [UInt8] = []
        keyIsCredential = scrubber.writeKey(text, into: &written)
        bytes.append(contentsOf: written)
        // Three quarters full at most, so a probe always ends at an empty slot.
        guard keysKept < 48 else { return }
        keys[slot] = WrittenKey(address: address, written: written, credential: keyIsCredential)
        keysKept += 1
    }

    /// A member: its key, then its value (one line per field in a row's writer).
    public func member(_ name: StaticString, _ value: String?) {
        key(name)
        string(value)
    }

    public func member(_ name: StaticString, _ value: Int?) {
        key(name)
        int(value)
    }

    public func member(_ name: StaticString, _ value: Bool) {
        key(name)
        bool(value)
    }

    public func member(_ name: StaticString, instant date: Date?) {
        key(name)
        instant(date)
    }

    public func member(_ name: StaticString, strings list: [String]) {
        key(name)
        strings(list)
    }

    /// A member that is a list, each element written by `element` (a result's rows).
    public func member<Element>(_ name: StaticString, each list: [Element], _ element: (Element) -> Void) {
        key(name)
        beginArray()
        for item in list {
            self.element()
            element(item)
        }
        endArray()
    }

    /// A member that is a long list, its elements written in parts at once and joined in order:
    /// for a result of tens of thousands of rows (a month's agenda), whose writing was a quarter
    /// of the call. The first part is written here, each other into a buffer of its own with a
    /// writer of its own. The bytes are those of `member(_:each:)`.
    public func member<Element: Sendable>(
        _ name: StaticString, eachInParts list: [Element], bytesPerElement: Int, _ element: @Sendable (Element, JSONDirectWriter) -> Void
    ) {
        let parts = min(ProcessInfo.processInfo.activeProcessorCount, 4, list.count / Self.elementsPerPart)
        guard parts > 1 else { return member(name, each: list) { element($0, self) } }
        key(name)
        beginArray()
        // Room for every part and what closes the reply: growing 8 MB by one byte copies it all.
        reserve(list.count * bytesPerElement + 64)
        let others = PartsWritten(count: parts)
        let scrubber = self.scrubber
        let size = (list.count + parts - 1) / parts
        // Only part 0 touches this writer, and `concurrentPerform` returns after every part.
        nonisolated(unsafe) let first = self
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            let range = part * size..<min(list.count, (part + 1) * size)
            let writer = part == 0 ? first : JSONDirectWriter(bytes: [], scrubber: scrubber)
            if part > 0 { writer.reserve(range.count * bytesPerElement) }
            for index in range {
                writer.element()
                element(list[index], writer)
            }
            if part > 0 { others.set(part, writer.bytes) }
        }
        for part in 1..<parts {
            bytes.append(UInt8(ascii: ","))
            bytes.append(contentsOf: others.bytes(part))
        }
        endArray()
    }

    /// Below this many elements a part is not worth a thread.
    public static let elementsPerPart = 2_000

    /// Each part's bytes, each slot written by one thread only, read after all have finished.
    private final class PartsWritten: @unchecked Sendable {
        private var slots: [[UInt8]]
        init(count: Int) { slots = Array(repeating: [], count: count) }
        // `concurrentPerform` gives each part its own index, and returns after every part has
        // finished: no two threads touch one slot, and no read overlaps a write.
        func set(_ part: Int, _ bytes: [UInt8]) { slots.withUnsafeMutableBufferPointer { $0[part] = bytes } }
        func bytes(_ part: Int) -> [UInt8] { slots[part] }
    }

    /// A key that is data (a map's): scrubbed and checked each time. (Named apart from
    /// `key(_:)`: a literal would pick a `String` overload, and miss the cache of written keys.)
    public func dataKey(_ text: String) {
        separate()
        writeKey(text)
    }

    private func writeKey(_ text: String) {
        keyIsCredential = scrubber.writeKey(text, into: &bytes)
    }

    public func string(_ s: String) {
        if keyIsCredential || scrubsText {
            scrubber.writeString(s, credential: keyIsCredential, into: &bytes)
        } else {
            JSONWriter.writeString(s, into: &bytes)
        }
    }

    public func string(_ s: String?) {
        if let s { string(s) } else { null() }
    }

    public func strings(_ list: [String]) {
        beginArray()
        for s in list {
            element()
            string(s)
        }
        endArray()
    }

    public func int(_ i: Int) { JSONWriter.writeInteger(Int64(i), into: &bytes) }

    public func int(_ i: Int?) {
        if let i { int(i) } else { null() }
    }

    public func bool(_ b: Bool) { bytes.append(contentsOf: (b ? "true" : "false").utf8) }

    public func null() { bytes.append(contentsOf: "null".utf8) }

    /// A date and time as ISO 8601 text (`2026-11-26T10:00:00`, with `Z` when `utc`), or a
    /// date alone when `hour` is nil. Written digit by digit: making a `String` per time was a
    /// tenth of an agenda.
    public func dateTime(year: Int, month: Int, day: Int, hour: Int? = nil, minute: Int = 0, second: Int = 0, utc: Bool = false) {
        // Quoted text in a buffer of its own, then copied whole: one append instead of twenty.
        var text: (UInt64, UInt64, UInt64) = (0, 0, 0)
        let count = withUnsafeMutableBytes(of: &text) { buffer -> Int in
            var at = 0
            func put(_ byte: UInt8) {
                buffer[at] = byte
                at += 1
            }
            func two(_ value: Int) {
                put(UInt8(truncatingIfNeeded: 48 + value / 10 % 10))
                put(UInt8(truncatingIfNeeded: 48 + value % 10))
            }
            put(UInt8(ascii: "\""))
            two(year / 100)
            two(year)
            put(UInt8(ascii: "-"))
            two(month)
            put(UInt8(ascii: "-"))
            two(day)
            if let hour {
                put(UInt8(ascii: "T"))
                two(hour)
                put(UInt8(ascii: ":"))
                two(minute)
                put(UInt8(ascii: ":"))
                two(second)
                if utc { put(UInt8(ascii: "Z")) }
            }
            put(UInt8(ascii: "\""))
            return at
        }
        withUnsafeBytes(of: &text) { buffer in
            let written = UnsafeRawBufferPointer(rebasing: buffer[0..<count])
            if scrubsText || keyIsCredential {
                // Unquoted, through the string path (scrubbed, or the placeholder).
                string(String(decoding: written.dropFirst().dropLast(), as: UTF8.self))
            } else {
                bytes.append(contentsOf: written)
            }
        }
    }

    /// An instant as `ISO8601.string` writes it (`2026-11-26T10:00:00Z`).
    public func instant(_ date: Date) {
        let t = date.timeIntervalSince1970
        // ISO8601.string's own range (Foundation writes the rest).
        guard t >= -12_212_553_600, t < 253_402_300_800 else { return string(ISO8601.string(date)) }
        let seconds = Int64(t.rounded(.down))
        let days = Int((seconds - (((seconds % 86_400) + 86_400) % 86_400)) / 86_400)
        let secondOfDay = Int(seconds - Int64(days) * 86_400)
        let (year, month, day) = CivilDate.civil(days: days)
        dateTime(year: year, month: month, day: day, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60, utc: true)
    }

    public func instant(_ date: Date?) {
        if let date { instant(date) } else { null() }
    }

    /// Any other value, through `JSONStreamEncoder` (with the same scrubbing).
    public func value<Value: Encodable>(_ value: Value) throws {
        if keyIsCredential, let s = value as? String {
            return string(s)
        }
        try JSONStreamEncoder.write(value, into: &bytes, scrubber: scrubber)
    }
}
