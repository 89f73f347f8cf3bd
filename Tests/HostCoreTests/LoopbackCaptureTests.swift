import AsyncHTTPClient
import Foundation
import HostCore
import NIOCore
import NIOPosix
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(1)))
struct LoopbackCaptureTests {
    static func get(_ url: String) async throws -> (Int, String) {
        let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(5))
        let body = try await response.body.collect(upTo: 1 << 16)
        return (Int(response.status.code), String(buffer: body))
    }

    /// Nothing accepts connections on the port any more.
    static func isClosed(_ port: Int) async -> Bool {
        do {
            let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port).get()
            try? await channel.close()
            return false
        } catch {
            return true
        }
    }

    @Test func oneRedirectIsCapturedAndTheListenerCloses() async throws {
        let capture = try await LoopbackCapture.start(title: "Signed in to IS/STAG")
        #expect(capture.url.hasPrefix("http://127.0.0.1:\(capture.port)/"))
        #expect(capture.url.count > "http://127.0.0.1:\(capture.port)/".count + 30, "the path is long enough not to be guessed")
        // Another path is not the redirect: 404, and the capture goes on.
        let (stray, _) = try await Self.get("http://127.0.0.1:\(capture.port)/favicon.ico")
        #expect(stray == 404)

        let (status, page) = try await Self.get(capture.url + "?stagUserTicket=ab+cd%2Fef&stagUserName=st12345&empty=")
        #expect(status == 200)
        #expect(page.contains("<h1>Signed in to IS/STAG</h1>"))
        #expect(page.contains("You can close this tab."))
        let redirect = try await capture.redirect()
        #expect(redirect.rawQuery == "stagUserTicket=ab+cd%2Fef&stagUserName=st12345&empty=")
        #expect(redirect.items == ["stagUserTicket": "ab+cd/ef", "stagUserName": "st12345", "empty": ""])

        // A second redirect finds nothing listening.
        await capture.closed()
        #expect(await Self.isClosed(capture.port))
        #expect(try await capture.redirect() == redirect, "the first redirect stays the answer")
    }

    @Test func noBrowserWithinTheTimeoutEndsItAndLeavesNothingListening() async throws {
        let capture = try await LoopbackCapture.start(timeout: .milliseconds(100))
        await #expect(throws: LoopbackCapture.Failure.timedOut(.milliseconds(100))) { try await capture.redirect() }
        await capture.closed()
        #expect(await Self.isClosed(capture.port))
    }

    @Test func cancellingTheWaitCancelsTheCapture() async throws {
        let capture = try await LoopbackCapture.start()
        let waiting = Task { try await capture.redirect() }
        waiting.cancel()
        await #expect(throws: LoopbackCapture.Failure.cancelled) { try await waiting.value }
        await capture.closed()
        #expect(await Self.isClosed(capture.port))
    }

    @Test func aFixedPortIsUsedAndABusyOneIsAnError() async throws {
        let first = try await LoopbackCapture.start()
        await #expect(throws: (any Error).self) { _ = try await LoopbackCapture.start(port: first.port) }
        await first.cancel()
        // Listening on the same port again proves the first listener closed (probing the port
        // by connecting could reach another test's listener that was handed the port meanwhile).
        let again = try await LoopbackCapture.start(port: first.port)
        #expect(again.port == first.port)
        await again.cancel()
    }
}
