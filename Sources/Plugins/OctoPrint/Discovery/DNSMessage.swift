import NIOCore

/// Just enough DNS (RFC 1035, with name compression) to ask for `_octoprint._tcp.local` PTR
/// records and read PTR, SRV, TXT and A answers. Written by hand: no maintained Swift mDNS or
/// DNS-SD library is available, and Avahi skips loopback.
enum DNSMessage {
    enum RecordType: UInt16 { case a = 1, ptr = 12, txt = 16, srv = 33 }

    struct Record: Equatable {
        var name: String
        var type: UInt16
        var data: RecordData
    }

    enum RecordData: Equatable {
        case ptr(String)
        case srv(port: UInt16, target: String)
        case txt([String: String])
        case a(String)
        case other
    }

    /// A query for `name` of `type` (class IN), id 0 as mDNS uses.
    static func query(_ name: String, type: RecordType) -> ByteBuffer {
        var b = ByteBuffer()
        b.writeInteger(UInt16(0))  // id
        b.writeInteger(UInt16(0))  // flags: standard query
        b.writeInteger(UInt16(1))  // questions
        b.writeInteger(UInt16(0))
        b.writeInteger(UInt16(0))
        b.writeInteger(UInt16(0))
        writeName(name, into: &b)
        b.writeInteger(type.rawValue)
        b.writeInteger(UInt16(1))  // IN
        return b
    }

    static func writeName(_ name: String, into b: inout ByteBuffer) {
        for label in name.split(separator: ".") where !label.isEmpty {
            let bytes = Array(label.utf8.prefix(63))
            b.writeInteger(UInt8(bytes.count))
            b.writeBytes(bytes)
        }
        b.writeInteger(UInt8(0))
    }

    /// Every answer, authority and additional record of a response; nil when it is not one.
    static func records(in packet: ByteBuffer) -> [Record]? {
        let bytes = Array(packet.readableBytesView)
        guard bytes.count >= 12 else { return nil }
        func u16(_ i: Int) -> UInt16? { i + 1 < bytes.count ? UInt16(bytes[i]) << 8 | UInt16(bytes[i + 1]) : nil }
        guard let flags = u16(2), flags & 0x8000 != 0, let qd = u16(4), let an = u16(6), let ns = u16(8), let ar = u16(10) else { return nil }
        var i = 12
        for _ in 0..<qd {
            guard let (_, next) = readName(bytes, i) else { return nil }
            i = next + 4
        }
        var records: [Record] = []
        for _ in 0..<(Int(an) + Int(ns) + Int(ar)) {
            guard let (name, next) = readName(bytes, i), let type = u16(next), let length = u16(next + 8) else { return records }
            let start = next + 10
            let end = start + Int(length)
            guard end <= bytes.count else { return records }
            var data = RecordData.other
            switch RecordType(rawValue: type) {
            case .ptr: if let (target, _) = readName(bytes, start) { data = .ptr(target) }
            case .srv:
                if let port = u16(start + 4), let (target, _) = readName(bytes, start + 6) { data = .srv(port: port, target: target) }
            case .txt:
                var entries: [String: String] = [:]
                var j = start
                while j < end {
                    let n = Int(bytes[j])
                    guard j + 1 + n <= end else { break }
                    let text = String(decoding: bytes[(j + 1)..<(j + 1 + n)], as: UTF8.self)
                    if let eq = text.firstIndex(of: "=") {
                        entries[String(text[..<eq]).lowercased()] = String(text[text.index(after: eq)...])
                    } else if !text.isEmpty {
                        entries[text.lowercased()] = ""
                    }
                    j += 1 + n
                }
                data = .txt(entries)
            case .a: if length == 4 { data = .a(bytes[start..<end].map(String.init).joined(separator: ".")) }
            case nil: break
            }
            records.append(Record(name: name, type: type, data: data))
            i = end
        }
        return records
    }

    /// A possibly compressed name at `offset`, and the offset after it.
    static func readName(_ bytes: [UInt8], _ offset: Int) -> (String, Int)? {
        var labels: [String] = []
        var i = offset
        var end: Int?
        var jumps = 0
        while i < bytes.count {
            let n = Int(bytes[i])
            if n == 0 {
                return (labels.joined(separator: "."), end ?? i + 1)
            } else if n & 0xC0 == 0xC0 {
                guard i + 1 < bytes.count, jumps < 32 else { return nil }
                if end == nil { end = i + 2 }
                i = (n & 0x3F) << 8 | Int(bytes[i + 1])
                jumps += 1
            } else {
                guard i + 1 + n <= bytes.count else { return nil }
                labels.append(String(decoding: bytes[(i + 1)..<(i + 1 + n)], as: UTF8.self))
                i += 1 + n
            }
        }
        return nil
    }
}
