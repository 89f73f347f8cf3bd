import AssistantTesting
import Foundation
import HostCore
import Testing

/// OctoPrint behind an https reverse proxy with a private CA and HTTP basic auth.
@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct TLSAndBasicAuthTests {
    static var enabled: Bool { OctoPrintRESTTests.enabled && Peers.shouldRun(program: "/usr/bin/openssl") }

    @Test(.enabled(if: enabled)) func privateCAAndBasicAuth() async throws {
        try await OctoPrintHost.with(addPrinter: false) { op in
            let dir = TemporaryDirectory()
            let cert = dir.file("cert.pem")
            let key = dir.file("key.pem")
            let made = await Peers.runOffPool(
                "/usr/bin/openssl",
                [
                    "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN=127.0.0.1",
                    "-addext", "subjectAltName=IP:127.0.0.1",
                ])
            #expect(made == 0)
            let proxy = try await CountingProxy(target: "127.0.0.1:\(op.octoprint.port)", tls: (cert, key), basic: "maker:pw-basic-123")
            defer { proxy.stop() }
            let url = JSONValue.string(proxy.url)
            let apiKey = JSONValue.string(op.octoprint.apiKey)

            let untrusted = try await op.failure("octoprint.printers.add", ["name": "mk3", "url": url, "api_key": apiKey])
            #expect(untrusted.code == -32004)
            #expect(untrusted.message.contains("TLS"), "\(untrusted.message)")
            let noBasic = try await op.failure("octoprint.printers.add", ["name": "mk3", "url": url, "api_key": apiKey, "ca_file": .string(cert)])
            #expect(noBasic.code == 1008)
            #expect(noBasic.message.contains("basic_user"))
            let wrongBasic = try await op.failure(
                "octoprint.printers.add",
                [
                    "name": "mk3", "url": url, "api_key": apiKey, "ca_file": .string(cert), "basic_user": "maker", "basic_password": "nope",
                ])
            #expect(wrongBasic.code == 1008)
            #expect(
                try await op.failure(
                    "octoprint.printers.add", ["name": "mk3", "url": url, "api_key": apiKey, "ca_file": .string(dir.file("none.pem"))]
                )
                .data?["param"] == "ca_file")

            let added = try await op.call(
                "octoprint.printers.add",
                [
                    "name": "mk3", "url": url, "api_key": apiKey, "ca_file": .string(cert), "basic_user": "maker", "basic_password": "pw-basic-123",
                ])
            #expect(added.encodedString().contains("pw-basic-123") == false)
            #expect(try await op.call("octoprint.status")["connected"] == false)
            // The push websocket (wss, basic auth) opens and the monitor's catch-up poll follows it.
            try await proxy.waitForRequests("the websocket", count: 1) { $0.contains("/sockjs/websocket") }
            try await proxy.waitForRequests("the catch-up poll", count: 1) { $0 == "REQUEST GET /api/printer" }
            #expect(try await op.call("vault.list").encodedString().contains("octoprint/mk3/basic_password"))
        }
    }
}
