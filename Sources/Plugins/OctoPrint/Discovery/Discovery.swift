import Foundation
import NIOCore
import NIOPosix
import PluginKit

/// `octoprint.discover`: browses DNS-SD `_octoprint._tcp` over mDNS. The query leaves from a
/// port other than 5353 (a "legacy unicast" query, RFC 6762 §6.7), so responders answer that
/// port directly; sent from `interface` with IP_MULTICAST_IF set to it, so on 127.0.0.1 it
/// never leaves the machine.
enum Discovery {
    static let service = "_octoprint._tcp.local"

    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = AddressedEnvelope<ByteBuffer>
        let continuation: AsyncStream<ByteBuffer>.Continuation
        init(_ continuation: AsyncStream<ByteBuffer>.Continuation) { self.continuation = continuation }
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            continuation.yield(unwrapInboundIn(data).data)
        }
        func channelInactive(context: ChannelHandlerContext) { continuation.finish() }
    }

    static func browse(interface: String?, timeout: Duration) async throws -> [JSONValue] {
        let source = interface ?? "0.0.0.0"
        guard let address = try? SocketAddress(ipAddress: source, port: 0), case .v4 = address else {
            throw OctoPrintParams.interface.invalid("'\(source)' must be the IPv4 address of a local interface, e.g. 192.168.1.20 or 127.0.0.1")
        }
        let (stream, continuation) = AsyncStream<ByteBuffer>.makeStream()
        let channel: any Channel
        do {
            channel = try await DatagramBootstrap(group: MultiThreadedEventLoopGroup.singleton)
                .channelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(Collector(continuation)) }
                }
                .bind(to: address).get()
        } catch {
            throw OctoPrintParams.interface.invalid("cannot send from \(source): \(error)")
        }
        if let provider = channel as? any SocketOptionProvider {
            if interface != nil {
                var addr = in_addr()
                inet_pton(AF_INET, source, &addr)
                try await provider.setIPMulticastIF(addr).get()
            }
            try await provider.setIPMulticastTTL(255).get()
            try await provider.setIPMulticastLoop(1).get()
        }
        let group = try SocketAddress(ipAddress: "224.0.0.251", port: 5353)
        func ask(_ name: String, _ type: DNSMessage.RecordType) async throws {
            try await channel.writeAndFlush(AddressedEnvelope(remoteAddress: group, data: DNSMessage.query(name, type: type)))
        }

        // The collector is a child of this call; closing the channel ends its stream, on every path.
        let records = try await withThrowingTaskGroup(of: [DNSMessage.Record].self) { group in
            group.addTask {
                var seen: [DNSMessage.Record] = []
                for await packet in stream { seen += DNSMessage.records(in: packet) ?? [] }
                return seen
            }
            do {
                // Ask three times over the listening window: packets on a busy network get lost.
                let step = timeout / 3
                for _ in 0..<3 {
                    try await ask(service, .ptr)
                    try await Task.sleep(for: step)
                }
            } catch {
                try? await channel.close()
                throw error
            }
            try? await channel.close()
            return try await group.next() ?? []
        }
        return instances(from: records)
    }

    static func instances(from records: [DNSMessage.Record]) -> [JSONValue] {
        var srv: [String: (port: UInt16, target: String)] = [:]
        var txt: [String: [String: String]] = [:]
        var a: [String: String] = [:]
        var names: [String] = []
        for r in records {
            switch r.data {
            case .ptr(let instance) where r.name.lowercased() == service.lowercased(): if !names.contains(instance) { names.append(instance) }
            case .srv(let port, let target): srv[r.name.lowercased()] = (port, target)
            case .txt(let entries): txt[r.name.lowercased()] = entries
            case .a(let ip): a[r.name.lowercased()] = a[r.name.lowercased()] ?? ip
            default: break
            }
        }
        var seen = Set<String>()
        var result: [JSONValue] = []
        for instance in names {
            let key = instance.lowercased()
            guard let s = srv[key] else { continue }
            let t = txt[key] ?? [:]
            let host = a[s.target.lowercased()] ?? s.target
            var path = t["path"] ?? "/"
            if !path.hasPrefix("/") { path = "/" + path }
            if path.hasSuffix("/") { path.removeLast() }
            let url = "http://\(host):\(s.port)\(path)"
            let identity = t["uuid"].flatMap { $0.isEmpty ? nil : $0 } ?? url
            guard seen.insert(identity).inserted else { continue }
            let display = instance.hasSuffix("." + service) ? String(instance.dropLast(service.count + 1)) : instance
            func opt(_ k: String) -> JSONValue { t[k].map(JSONValue.string) ?? .null }
            result.append([
                "name": .string(display), "url": .string(url), "host": .string(s.target),
                "address": a[s.target.lowercased()].map(JSONValue.string) ?? .null,
                "port": .int(Int64(s.port)), "path": .string(path.isEmpty ? "/" : path), "version": opt("version"), "api": opt("api"),
                "uuid": opt("uuid"), "model": opt("model"), "vendor": opt("vendor"),
            ])
        }
        return result
    }
}
