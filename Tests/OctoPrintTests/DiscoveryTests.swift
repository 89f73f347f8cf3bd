import AssistantTesting
import Foundation
import HostCore
import NIOCore
import Testing

@testable import OctoPrint

@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct DiscoveryTests {
    /// A real OctoPrint announcing itself on 127.0.0.1 only; the browse asks on 127.0.0.1 only.
    @Test(.enabled(if: OctoPrintRESTTests.enabled)) func findsARealOctoPrintsOwnAnnouncement() async throws {
        let octoprint = try await OctoPrintPeer(discovery: true)
        defer { octoprint.stop() }
        let host = try await TestHost.started(plugins: [OctoPrintPlugin()])
        var found: [JSONValue] = []
        // Zeroconf registers shortly after OctoPrint starts listening: browse until it answers.
        for _ in 0..<5 {
            let r = try await host.call("octoprint.discover", ["interface": "127.0.0.1", "timeout_s": 2]).get()
            found = r["printers"]?.arrayValue ?? []
            if found.contains(where: { $0["port"]?.intValue == Int64(octoprint.port) }) { break }
        }
        let mine = found.filter { $0["port"]?.intValue == Int64(octoprint.port) }
        #expect(mine.count == 1, "one entry per uuid: \(found)")
        #expect(mine.first?["url"]?.stringValue == "http://127.0.0.1:\(octoprint.port)")
        #expect(mine.first?["version"] == "1.11.8")
        #expect(mine.first?["api"] == "0.1")
        #expect(mine.first?["uuid"]?.stringValue?.isEmpty == false)
        #expect(try await host.call("octoprint.discover", ["interface": "not-an-ip"]).failureParam == "interface")
        await host.stop()
    }

    @Test func parsesCompressedAnswersAndDeduplicatesByUUID() throws {
        // An mDNS response: PTR, SRV, TXT and A, names compressed, built by hand.
        var b = ByteBuffer()
        b.writeInteger(UInt16(0))
        b.writeInteger(UInt16(0x8400))
        b.writeInteger(UInt16(0))
        b.writeInteger(UInt16(4))
        b.writeInteger(UInt16(0))
        b.writeInteger(UInt16(0))
        let serviceOffset = b.writerIndex
        DNSMessage.writeName("_octoprint._tcp.local", into: &b)
        b.writeInteger(UInt16(12))
        b.writeInteger(UInt16(1))
        b.writeInteger(UInt32(120))
        var instance = ByteBuffer()
        instance.writeInteger(UInt8(5))
        instance.writeString("Prusa")
        instance.writeInteger(UInt16(0xC000 | serviceOffset))
        b.writeInteger(UInt16(instance.readableBytes))
        let instanceOffset = b.writerIndex
        b.writeBuffer(&instance)
        // SRV for the instance (pointer to it).
        b.writeInteger(UInt16(0xC000 | instanceOffset))
        b.writeInteger(UInt16(33))
        b.writeInteger(UInt16(1))
        b.writeInteger(UInt32(120))
        var srv = ByteBuffer()
        srv.writeInteger(UInt16(0))
        srv.writeInteger(UInt16(0))
        srv.writeInteger(UInt16(5000))
        DNSMessage.writeName("prusa.local", into: &srv)
        b.writeInteger(UInt16(srv.readableBytes))
        let targetOffset = b.writerIndex + 6
        b.writeBuffer(&srv)
        // TXT.
        b.writeInteger(UInt16(0xC000 | instanceOffset))
        b.writeInteger(UInt16(16))
        b.writeInteger(UInt16(1))
        b.writeInteger(UInt32(120))
        let entries = ["path=/octo/", "version=1.11.8", "api=0.1", "uuid=abc-123"]
        b.writeInteger(UInt16(entries.reduce(0) { $0 + 1 + $1.utf8.count }))
        for e in entries {
            b.writeInteger(UInt8(e.utf8.count))
            b.writeString(e)
        }
        // A for the target.
        b.writeInteger(UInt16(0xC000 | targetOffset))
        b.writeInteger(UInt16(1))
        b.writeInteger(UInt16(1))
        b.writeInteger(UInt32(120))
        b.writeInteger(UInt16(4))
        b.writeBytes([192, 168, 1, 20])

        let records = try #require(DNSMessage.records(in: b))
        #expect(records.count == 4)
        let twice = Discovery.instances(from: records + records)
        #expect(twice.count == 1)
        #expect(twice.first?["url"] == "http://192.168.1.20:5000/octo")
        #expect(twice.first?["name"] == "Prusa")
        #expect(twice.first?["uuid"] == "abc-123")
        #expect(DNSMessage.records(in: ByteBuffer(bytes: [1, 2, 3])) == nil)
        var loop = ByteBuffer()
        loop.writeBytes([0, 0, 0x84, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0xC0, 12])
        #expect(DNSMessage.records(in: loop)?.isEmpty == true, "a self-pointing name is rejected, not followed forever")
    }
}

extension Result<JSONValue, RPCError> {
    var failureParam: String? {
        if case .failure(let e) = self { return e.data?["param"]?.stringValue }
        return nil
    }
}
