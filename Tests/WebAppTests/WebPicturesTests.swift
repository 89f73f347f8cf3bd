import AssistantTesting
import Foundation
import HTTPTypes
import HostCore
import Hummingbird
import HummingbirdTesting
import Logging
import Synchronization
import Testing

@testable import Logbook
@testable import WebApp

/// Files a section declares (pictures, a PDF), a section shown once per item, a form's check
/// before saving and its suggestions as the person types: through the router, on a real host.
@Suite(.stopsTestHosts, .timeLimit(.minutes(1))) struct WebPicturesTests {
    /// The paths the cameras were asked to write, to check that each file is gone once served.
    static let written = Mutex<[String]>([])

    /// Two cameras, each a section of the Printers page with a picture drawn again every few
    /// seconds and a file to save; the second camera's picture cannot be made.
    struct CameraPlugin: AssistantPlugin {
        var info: PluginInfo {
            PluginInfo(
                id: "cams", version: "1", summary: "two cameras",
                pages: [
                    PageDeclaration(
                        .printers, .init("Camera", "Kamera"), read: .init(method: "cams.state"),
                        pictures: [
                            .init("cams.snap", .init("Now", "Teď"), params: ["size": 3], path: "out", kind: .png, refreshSeconds: 5),
                            .init("cams.snap", .init("Save", "Uložit"), params: ["size": 4], path: "out", kind: .pdf, download: true),
                        ],
                        each: .init("cams.list", member: "cameras", key: "name", param: "camera"))
                ])
        }

        var commands: [PluginCommand<Void>] {
            [
                PluginCommand("list", "cameras", result: .any("cameras"), effect: .read) { _, _, _ in
                    ["cameras": [["name": "hall"], ["name": "broken cam"]]]
                },
                PluginCommand("state", "a camera", params: [ParamSpec("camera", .string, help: "which")], result: .any("state"), effect: .read) {
                    _, params, _ in ["camera": .string(params.string("camera") ?? "?"), "state": "on"]
                },
                PluginCommand(
                    "snap", "a picture",
                    params: [
                        ParamSpec("camera", .string, help: "which"), ParamSpec("size", .integer(), help: "bytes"),
                        ParamSpec("out", .path, required: true, help: "file"),
                    ],
                    result: .any("path"), effect: .write
                ) { _, params, _ in
                    let path = params.string("out") ?? ""
                    WebPicturesTests.written.withLock { $0.append(path) }
                    guard params.string("camera") == "hall" else { throw RPCError.invalidParams("'camera' hears nothing from that camera") }
                    let bytes = Data(repeating: 0x41, count: Int(params.int("size") ?? 1))
                    guard FileManager.default.createFile(atPath: path, contents: bytes) else {
                        throw RPCError.invalidParams("'out' cannot be written")
                    }
                    return ["path": .string(path)]
                }.says("Saved {path}").writesFiles(),
            ]
        }

        func setup(_ context: PluginContext) async throws -> PluginSetup<Void> { .ready(()) }
    }

    @Test func eachCameraHasItsSectionAndItsPicturesComeThroughTheDaemon() async throws {
        let bench = try await WebAppTests.bench([CameraPlugin()])
        let token = try await bench.pair(role: "read")
        try await WebAppTests.app(bench).test(.router) { client in
            let cookie = try await WebAppTests.session(client, token)
            let page = try await client.execute(uri: "/printers", method: .get, headers: [.cookie: cookie]) { WebAppTests.text($0) }
            #expect(page.contains("<h2>Camera: hall</h2>") && page.contains("<h2>Camera: broken cam</h2>"), "\(page)")
            #expect(page.contains("<main data-live=\"30\">"), "a page whose pictures follow something is live")
            #expect(page.contains("<img src=\"/picture/cams/0/0?item=hall\" alt=\"Now\" data-refresh=\"5\">"), "\(page)")
            #expect(page.contains("<a href=\"/picture/cams/0/1?item=broken%20cam\" download>Save</a>"))
            // A read device gets the picture: the only file written was the app's own, now gone.
            try await client.execute(uri: "/picture/cams/0/0?item=hall", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/png")
                #expect(Array(response.body.readableBytesView) == [0x41, 0x41, 0x41])
                #expect(response.headers[.contentSecurityPolicy] != nil && response.headers[.cacheControl] == "no-store")
            }
            try await client.execute(uri: "/picture/cams/0/1?item=hall", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "application/pdf")
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"cams-snap.pdf\"")
                #expect(response.body.readableBytes == 4)
            }
            let paths = Self.written.withLock { $0 }
            #expect(paths.count == 2 && Set(paths).count == 2, "a fresh file each time: \(paths)")
            for path in paths {
                #expect(
                    !FileManager.default.fileExists(atPath: path)
                        && !FileManager.default.fileExists(atPath: (path as NSString).deletingLastPathComponent))
                #expect(path.hasPrefix(NSTemporaryDirectory()) || path.hasPrefix("/tmp/"), "\(path)")
            }
            // A camera that fails: its words, as a plain answer the image's place shows.
            try await client.execute(uri: "/picture/cams/0/0?item=broken%20cam", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .badGateway && String(buffer: response.body).contains("'camera' hears nothing from that camera"))
            }
            // Only the declared items, pictures and sections; nothing without a session.
            for uri in [
                "/picture/cams/0/0?item=garage", "/picture/cams/0/0", "/picture/cams/0/2?item=hall", "/picture/cams/1/0?item=hall",
                "/picture/nope/0/0?item=hall", "/picture/cams/x/0?item=hall",
            ] {
                try await client.execute(uri: uri, method: .get, headers: [.cookie: cookie]) { #expect($0.status == .notFound, "\(uri)") }
            }
            try await client.execute(uri: "/picture/cams/0/0?item=hall", method: .get, headers: [:]) { #expect($0.status == .unauthorized) }
            #expect(Self.written.withLock { $0.count } == 3, "nothing was made for a refused address")
        }
    }

    /// The Logbook page: a flight checked before it is logged (derived times shown, nothing
    /// saved, what was typed kept), airports offered as typed, the chart and the PDF.
    @Test func aFlightIsCheckedBeforeItIsLoggedAndTheLogbookComesAsAPictureAndAPDF() async throws {
        let bench = try await WebAppTests.bench([LogbookPlugin()])
        _ = try await bench.host.call(
            "logbook.aircraft.add", ["registration": "OK-SKA", "make": "Cessna", "model": "172", "class_rating": "SEP(land)"]
        ).get()
        _ = try await bench.host.call(
            "logbook.flights.add", ["dep": "LKPR", "arr": "LKTB", "out": "2026-10-01T08:00:00Z", "in": "2026-10-01T09:05:00Z", "aircraft": "OK-SKA"]
        ).get()
        let token = try await bench.pair()
        try await WebAppTests.app(bench).test(.router) { client in
            let cookie = try await WebAppTests.session(client, token)
            let page = try await client.execute(uri: "/logbook", method: .get, headers: [.cookie: cookie]) { WebAppTests.text($0) }
            #expect(page.contains("<main>\n"), "nothing on the Logbook page follows anything")
            #expect(page.contains("<legend>Log a flight</legend>") && page.contains("<button name=\"dry_run\" value=\"true\""), "\(page)")
            #expect(page.contains("list=\"suggest-dep\" data-suggest=\"/suggest/logbook/1/2\""))
            #expect(page.contains("<img src=\"/picture/logbook/1/0\" alt=\"Flight time by month\">"))
            // The class ratings and the FTL limits, each a section of its own with its view.
            #expect(page.contains("<h2>Class ratings</h2>") && page.contains("<h2>Flight and duty time limits</h2>"), "\(page)")
            #expect(page.contains("flight time in 28 consecutive days") && page.contains("Resets"), "the limits' rows and columns")
            #expect(page.contains("<a href=\"/picture/logbook/1/3\" download>The logbook as a PDF</a>"))
            #expect(page.contains("alt=\"Flight time by aircraft\"") && page.contains("alt=\"Night and IFR time by month\""))
            let csrf = try WebAppTests.csrf(page)
            let flight = [
                ("method", "logbook.flights.add"), ("date", "2026-11-20"), ("aircraft", "OK-SKA"), ("dep", "LKTB"), ("arr", "LKPR"),
                ("out", "14:10"), ("in", "15:02"), ("function", "pic"), ("csrf", csrf), ("back", "/logbook"),
            ]
            let checked = try await client.execute(
                uri: "/call", method: .post, headers: WebAppTests.posting(cookie: cookie), body: WebAppTests.form(flight + [("dry_run", "true")])
            ) { response in
                #expect(response.status == .ok)
                return WebAppTests.text(response)
            }
            #expect(checked.contains("<dt class=\"heading\">What would be saved</dt>"), "\(checked)")
            #expect(checked.contains("<dt>Total</dt><dd>0:52</dd>") && checked.contains("<dt>PIC</dt><dd>0:52</dd>"), "\(checked)")
            #expect(checked.contains("<input name=\"out\" type=\"text\" required value=\"14:10\""))
            #expect(checked.contains("<option selected>pic</option>"), "the chosen function is kept")
            let count = { try await bench.host.call("logbook.flights.list", [:]).get()["total_count"]?.intValue }
            #expect(try await count() == 1, "a check saves nothing")
            try await client.execute(
                uri: "/call", method: .post, headers: WebAppTests.posting(cookie: cookie), body: WebAppTests.form(flight)
            ) { response in
                #expect(response.status == .seeOther && response.headers[.location] == "/logbook")
            }
            #expect(try await count() == 2)
            // The same flight checked again: the duplicate is said, before anything is saved.
            let again = try await client.execute(
                uri: "/call", method: .post, headers: WebAppTests.posting(cookie: cookie), body: WebAppTests.form(flight + [("dry_run", "true")])
            ) { WebAppTests.text($0) }
            #expect(again.contains("class=\"error\"") && !again.contains("What would be saved"), "\(again)")
            // Airports as typed: by name, at most ten, nothing for one letter.
            let offered = try await client.execute(uri: "/suggest/logbook/1/2?q=brno", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.headers[.contentType] == "application/json")
                return try JSONValue.decode(String(buffer: response.body))
            }
            #expect(
                offered.arrayValue?.contains { $0["value"] == "LKTB" && $0["label"]?.stringValue?.contains("Brno") == true } == true, "\(offered)")
            let short = try await client.execute(uri: "/suggest/logbook/1/2?q=b", method: .get, headers: [.cookie: cookie]) {
                String(buffer: $0.body)
            }
            #expect(short == "[]")
            try await client.execute(uri: "/suggest/logbook/1/0?q=brno", method: .get, headers: [.cookie: cookie]) { #expect($0.status == .notFound) }
            // The charts and the PDF, made for the page.
            for chart in 0..<3 {
                try await client.execute(uri: "/picture/logbook/1/\(chart)", method: .get, headers: [.cookie: cookie]) { response in
                    #expect(response.status == .ok && Array(response.body.readableBytesView.prefix(4)) == [0x89, 0x50, 0x4E, 0x47], "a PNG")
                }
            }
            try await client.execute(uri: "/picture/logbook/1/3", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .ok && String(buffer: response.body).hasPrefix("%PDF-"))
                #expect(response.headers[.contentDisposition] == "attachment; filename=\"logbook-export.pdf\"")
            }
        }
        // At the terminal the check says what it would log, not that it logged it.
        let said = try await bench.host.call(
            "logbook.flights.add",
            ["dep": "LKTB", "arr": "LKPR", "out": "2026-11-21T08:00:00Z", "in": "2026-11-21T08:40:00Z", "aircraft": "OK-SKA", "dry_run": true]
        ).get()
        #expect(said["id"] == .null && said["total_min"] == 40)
        let descriptor = try #require(bench.host.host.dispatcher.methods["logbook.flights.add"]?.descriptor)
        let sentence = descriptor.says?.said(result: said, arguments: ["dry_run": true], zone: TimeZone(identifier: "UTC")!)
        #expect(
            sentence == "Would log a flight on Sat 21 Nov 2026: LKTB → LKPR in OK-SKA, 0:40 (PIC 0:40, night 0:00); nothing was saved",
            "\(sentence ?? "")")
    }

    /// Files made at once are bounded: two for a device and four in all run; the next waits its
    /// turn (a page's third chart), handed the slot given back; too many waiting are refused.
    @Test func picturesMadeAtOnceAreBounded() async {
        let slots = PictureSlots()
        var taken: [Bool] = []
        for device in ["a", "a", "b", "b"] { taken.append(await slots.take(device)) }
        #expect(taken == [true, true, true, true])
        var queued = slots.queued.makeAsyncIterator()
        let third = Task { await slots.take("a") }
        _ = await queued.next()
        await slots.give("b")
        #expect(await slots.waitingCount == 1, "a's third still waits: a has its two")
        await slots.give("a")
        #expect(await third.value, "handed the slot a gave back")
        #expect(await slots.waitingCount == 0)
        var waiters: [Task<Bool, Never>] = []
        for _ in 0..<PictureSlots.waitingPerDevice {
            waiters.append(Task { await slots.take("a") })
            _ = await queued.next()
        }
        #expect(await !slots.take("a"), "one more than may wait is refused")
        for _ in 0..<PictureSlots.waitingPerDevice + 2 { await slots.give("a") }
        for waiter in waiters { #expect(await waiter.value) }
    }
}
