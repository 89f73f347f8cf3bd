import AssistantTesting
import Foundation
import HTTPTypes
import HostCore
import Hummingbird
import HummingbirdTesting
import KOS
import Logbook
import Logging
import OctoPrint
import Stag
import Testing

@testable import Tasks
@testable import WebApp

/// The web app through its router, on a real host with the Tasks plugin: pairing, sessions, the
/// CSRF and origin checks, roles, confirmation, and Today. Nothing is served without a pairing.
@Suite(.stopsTestHosts) struct WebAppTests {
    static let now = ISO8601.date("2026-11-26T08:00:00Z")!
    static let origin = "http://127.0.0.1:8470"

    struct Bench {
        let host: TestHost
        let clock: TestClock

        func pair(role: String = "full", name: String = "phone") async throws -> String {
            let paired = try await host.call("web.pair", ["name": .string(name), "role": .string(role)]).get()
            let url = try #require(paired["url"]?.stringValue)
            #expect(url.hasPrefix("http://127.0.0.1:8470/pair/"), "\(url)")
            return String(url.dropFirst("http://127.0.0.1:8470/pair/".count))
        }
    }

    static func bench(_ plugins: [any AssistantPlugin] = [TasksPlugin()]) async throws -> Bench {
        let clock = TestClock(now: now)
        let host = try await TestHost.started(plugins: plugins, clock: clock) {
            $0.timeZone = TimeZone(identifier: "Europe/Prague")!
            $0.web.enabled = true
            // The router test has no Host: the app's own origin is the public address.
            $0.web.publicURL = "http://127.0.0.1:8470"
        }
        return Bench(host: host, clock: clock)
    }

    static func app(_ bench: Bench) throws -> some ApplicationProtocol {
        try WebApp.application(host: bench.host.host, logger: Logger(label: "web-test"))
    }

    static func form(_ fields: [(String, String)]) -> ByteBuffer {
        let allowed = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))
        return ByteBuffer(
            string: fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&"))
    }

    static func posting(cookie: String? = nil, origin: String? = Self.origin) -> HTTPFields {
        var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
        if let origin { headers[.origin] = origin }
        if let cookie { headers[.cookie] = cookie }
        return headers
    }

    /// The page as a person reads it: the few entities the templates write, undone.
    static func text(_ response: TestResponse) -> String {
        String(buffer: response.body).replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&quot;", with: "\"")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// Pairs through the address as a phone would: the page asks, the form pairs, the cookie is
    /// what later requests carry.
    static func session(_ client: some TestClientProtocol, _ token: String) async throws -> String {
        try await client.execute(uri: "/pair/\(token)", method: .get, headers: [:]) { response in
            #expect(response.status == .ok)
        }
        return try await client.execute(uri: "/pair", method: .post, headers: posting(), body: form([("token", token)])) { response in
            #expect(response.status == .seeOther && response.headers[.location] == "/", "\(text(response))")
            let cookie = try #require(response.headers[.setCookie])
            let flags = Set(cookie.split(separator: ";").dropFirst().map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
            #expect(flags.contains("httponly") && flags.contains("samesite=strict") && flags.contains("path=/"), "\(cookie)")
            #expect(flags.contains("max-age=2592000"), "30 days")
            #expect(!flags.contains("secure"), "no TLS here: a Secure cookie would never come back")
            return String(cookie.split(separator: ";")[0])
        }
    }

    static func csrf(_ page: String) throws -> String {
        let match = try #require(page.firstMatch(of: /name="csrf" value="([A-Za-z0-9_-]+)"/), "the page has a form")
        return String(match.output.1)
    }

    @Test func nothingIsServedWithoutAPairedDeviceAndEveryAnswerHasTheHeaders() async throws {
        let bench = try await Self.bench()
        try await Self.app(bench).test(.router) { client in
            for path in [
                "/", "/settings", "/assets/app.js", "/assets/icon.svg", "/sw.js", "/manifest.webmanifest", "/tasks", "/notices", "/no-such-page",
            ] {
                try await client.execute(uri: path, method: .get) { response in
                    #expect(response.status == .unauthorized, "\(path)")
                    #expect(!Self.text(response).contains("<nav"), "\(path): no page of the app")
                    #expect(response.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
                    #expect(response.headers[.contentSecurityPolicy]?.contains("frame-ancestors 'none'") == true)
                    #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY")
                    #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
                    #expect(response.headers[.xContentTypeOptions] == "nosniff")
                }
            }
            try await client.execute(
                uri: "/call", method: .post, headers: Self.posting(), body: Self.form([("method", "tasks.add"), ("title", "x")])
            ) {
                #expect($0.status == .unauthorized)
            }
            // A forged cookie is no session.
            let forged = "assistant_session=00000000-0000-0000-0000-000000000000.\(String(repeating: "A", count: 43))"
            try await client.execute(uri: "/", method: .get, headers: [.cookie: forged]) { #expect($0.status == .unauthorized) }
        }
        #expect(try await bench.host.call("tasks.list", ["when": "all"]).get()["tasks"] == [])
    }

    @Test func aPairingAddressPairsOnceWithinTenMinutes() async throws {
        let bench = try await Self.bench()
        let token = try await bench.pair(name: "Jana's phone")
        let stale = try await bench.pair()
        try await Self.app(bench).test(.router) { client in
            let page = try await client.execute(uri: "/pair/\(token)", method: .get) { Self.text($0) }
            #expect(page.contains("Pair this browser as “Jana's phone” (full)?"), "\(page)")
            let cookie = try await Self.session(client, token)
            try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { #expect($0.status == .ok) }
            // Used: refused, the same way as one never issued.
            try await client.execute(uri: "/pair", method: .post, headers: Self.posting(), body: Self.form([("token", token)])) { response in
                #expect(response.status == .forbidden)
                #expect(response.headers[.setCookie] == nil)
            }
            // Lapsed after ten minutes.
            bench.clock.advance(by: WebDevices.pairingLifetime + 1)
            try await client.execute(uri: "/pair", method: .post, headers: Self.posting(), body: Self.form([("token", stale)])) {
                #expect($0.status == .forbidden)
            }
        }
        let devices = try await bench.host.call("web.devices").get().arrayValue ?? []
        #expect(devices.map { $0["name"] } == ["Jana's phone"] && devices.first?["role"] == "full")
        // Only hashes are kept: no secret of the address or the session is in the database.
        let file = try Data(contentsOf: URL(fileURLWithPath: bench.host.directory.file("data/assistant.sqlite")))
        #expect(file.range(of: Data(token.split(separator: ".")[1].utf8)) == nil)
    }

    @Test func failedPairingsAreLimited() async throws {
        let bench = try await Self.bench()
        let token = try await bench.pair()
        try await Self.app(bench).test(.router) { client in
            for attempt in 1...PairingThrottle.limit {
                let guess = "\(token.split(separator: ".")[0]).\(String(repeating: "x", count: 43))"
                try await client.execute(uri: "/pair", method: .post, headers: Self.posting(), body: Self.form([("token", guess)])) {
                    #expect($0.status == .forbidden, "attempt \(attempt)")
                }
            }
            // Even the right address waits now.
            try await client.execute(uri: "/pair", method: .post, headers: Self.posting(), body: Self.form([("token", token)])) {
                #expect($0.status == .tooManyRequests)
            }
        }
    }

    @Test func aChangeNeedsTheFormsTokenAndThisAppsOrigin() async throws {
        let bench = try await Self.bench()
        let token = try await bench.pair()
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, token)
            let csrf = try Self.csrf(try await client.execute(uri: "/settings", method: .get, headers: [.cookie: cookie]) { Self.text($0) })
            let add = [("method", "tasks.add"), ("title", "From the phone"), ("due", "2026-11-26 18:00"), ("back", "/")]
            try await client.execute(uri: "/call", method: .post, headers: Self.posting(cookie: cookie), body: Self.form(add)) {
                #expect($0.status == .forbidden, "no CSRF token")
            }
            try await client.execute(
                uri: "/call", method: .post, headers: Self.posting(cookie: cookie), body: Self.form(add + [("csrf", "x" + csrf)])
            ) {
                #expect($0.status == .forbidden, "a wrong token")
            }
            for origin in ["https://evil.example", nil] {
                try await client.execute(
                    uri: "/call", method: .post, headers: Self.posting(cookie: cookie, origin: origin), body: Self.form(add + [("csrf", csrf)])
                ) { #expect($0.status == .forbidden, "origin \(origin ?? "missing")") }
            }
            // `Origin: null` (what a browser sends under no-referrer) counts only with the browser's
            // own same-origin mark and a host the app is served from; a rebinding name is not one.
            for (site, host) in [
                ("cross-site", "127.0.0.1:8470"), ("same-site", "127.0.0.1:8470"), ("same-origin", "evil.example:8470"), ("", "127.0.0.1:8470"),
            ] {
                var headers = Self.posting(cookie: cookie, origin: "null")
                headers[HTTPField.Name("Host")!] = host
                if !site.isEmpty { headers[HTTPField.Name("Sec-Fetch-Site")!] = site }
                try await client.execute(uri: "/call", method: .post, headers: headers, body: Self.form(add + [("csrf", csrf)])) {
                    #expect($0.status == .forbidden, "Origin null, Sec-Fetch-Site '\(site)', Host \(host)")
                }
            }
            #expect(try await bench.host.call("tasks.list", ["when": "all"]).get()["tasks"] == [], "nothing was added")
            try await client.execute(uri: "/call", method: .post, headers: Self.posting(cookie: cookie), body: Self.form(add + [("csrf", csrf)])) {
                response in
                #expect(response.status == .seeOther && response.headers[.location] == "/")
                // What the change did, said on the next page, as the CLI says it.
                let flash = try #require(response.headers[.setCookie]?.split(separator: ";").first.map(String.init))
                let next = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie + "; " + flash]) { Self.text($0) }
                #expect(next.contains("Added ") && next.contains("“From the phone”, due Thu 26 Nov 2026 18:00"), "\(next)")
            }
            var fromBrowser = Self.posting(cookie: cookie, origin: "null")
            fromBrowser[HTTPField.Name("Host")!] = "127.0.0.1:8470"
            fromBrowser[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
            let again = [("method", "tasks.add"), ("title", "Posted under no-referrer"), ("back", "/"), ("csrf", csrf)]
            try await client.execute(uri: "/call", method: .post, headers: fromBrowser, body: Self.form(again)) {
                #expect($0.status == .seeOther, "a browser's own form under no-referrer")
            }
            let tasks = try await bench.host.call("tasks.list", ["when": "all"]).get()["tasks"]?.arrayValue ?? []
            #expect(tasks.map { $0["title"] } == ["From the phone", "Posted under no-referrer"])
        }
    }

    @Test func aReadDeviceOnlyReadsAndNoDeviceReachesTheVaultOrAFile() async throws {
        let bench = try await Self.bench()
        let reader = try await bench.pair(role: "read")
        let full = try await bench.pair(role: "full")
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, reader)
            let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { Self.text($0) }
            let csrf = try Self.csrf(try await client.execute(uri: "/settings", method: .get, headers: [.cookie: cookie]) { Self.text($0) })
            #expect(!page.contains("action=\"/call\""), "a read device is offered no change")
            try await client.execute(
                uri: "/call", method: .post, headers: Self.posting(cookie: cookie),
                body: Self.form([("method", "tasks.add"), ("title", "x"), ("csrf", csrf)])
            ) { response in
                #expect(response.status == .forbidden)
                #expect(Self.text(response).contains("This device may only read"))
            }
            let fullCookie = try await Self.session(client, full)
            let fullCSRF = try Self.csrf(try await client.execute(uri: "/settings", method: .get, headers: [.cookie: fullCookie]) { Self.text($0) })
            for (fields, words) in [
                ([("method", "vault.list")], "vault.list is not offered to devices"),
                ([("method", "web.pair")], "web.pair is not offered to devices"),
                ([("method", "backup"), ("path", "/tmp/copy.sqlite")], "backup is not offered to devices"),
                ([("method", "tasks.export.ics"), ("path", "/tmp/web-export.ics")], "'path' names a file on the daemon's machine"),
            ] {
                try await client.execute(
                    uri: "/call", method: .post, headers: Self.posting(cookie: fullCookie), body: Self.form(fields + [("csrf", fullCSRF)])
                ) { response in
                    #expect(response.status == .forbidden, "\(fields)")
                    #expect(Self.text(response).contains(words), "\(Self.text(response))")
                }
            }
        }
        #expect(try await bench.host.call("tasks.list", ["when": "all"]).get()["tasks"] == [])
        #expect(!FileManager.default.fileExists(atPath: "/tmp/copy.sqlite") && !FileManager.default.fileExists(atPath: "/tmp/web-export.ics"))
    }

    @Test func aDestructiveCallAsksFirstAndDecliningChangesNothing() async throws {
        let bench = try await Self.bench()
        let task = try await bench.host.call("tasks.add", ["title": "Old draft"]).get()
        let id = try #require(task["id"]?.stringValue)
        let token = try await bench.pair()
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, token)
            let csrf = try Self.csrf(try await client.execute(uri: "/settings", method: .get, headers: [.cookie: cookie]) { Self.text($0) })
            let delete = [("method", "tasks.delete"), ("id", id), ("csrf", csrf), ("back", "/")]
            let question = try await client.execute(uri: "/call", method: .post, headers: Self.posting(cookie: cookie), body: Self.form(delete)) {
                response in
                #expect(response.status == .ok)
                return Self.text(response)
            }
            #expect(question.contains("Delete “Old draft”? It is kept 30 days for tasks.restore."), "\(question)")
            #expect(question.contains("name=\"confirmed\" value=\"yes\"") && question.contains("href=\"/\""))
            #expect(try await bench.host.call("tasks.get", ["id": .string(id)]).get()["title"] == "Old draft", "asked, not done")
            try await client.execute(
                uri: "/call", method: .post, headers: Self.posting(cookie: cookie), body: Self.form(delete + [("confirmed", "yes")])
            ) { #expect($0.status == .seeOther) }
            guard case .failure = try await bench.host.call("tasks.get", ["id": .string(id)]) else {
                Issue.record("confirmed, and still there")
                return
            }
        }
    }

    @Test func todayShowsTheDayAndDoneCompletesATask() async throws {
        let bench = try await Self.bench()
        _ = try await bench.host.call("tasks.add", ["title": "Lecture", "kind": "event", "start": "2026-11-26 10:00", "duration_min": 90]).get()
        let essay = try await bench.host.call("tasks.add", ["title": "Essay", "due": "2026-11-26 15:00"]).get()
        let id = try #require(essay["id"]?.stringValue)
        let token = try await bench.pair()
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, token)
            let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { Self.text($0) }
            #expect(page.contains("<h1>Today, Thursday 26 November</h1>"), "\(page)")
            #expect(page.contains("<main data-live=\"30\">"), "Today is drawn again while open")
            #expect(page.contains("10:00–11:30") && page.contains("Lecture"))
            #expect(page.contains("name=\"id\" value=\"\(id)\""), "the to-do has its Done button; the event has none")
            #expect(page.components(separatedBy: "name=\"method\" value=\"tasks.complete\"").count == 2)
            let czech = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie, .acceptLanguage: "cs-CZ,cs;q=0.9,en;q=0.5"]) {
                Self.text($0)
            }
            #expect(czech.contains("<html lang=\"cs\">") && czech.contains("<h1>Dnes, čtvrtek 26. listopadu</h1>"), "\(czech)")
            #expect(czech.contains(">Hotovo</button>"))
            let csrf = try Self.csrf(page)
            try await client.execute(
                uri: "/call", method: .post, headers: Self.posting(cookie: cookie),
                body: Self.form([("method", "tasks.complete"), ("id", id), ("csrf", csrf), ("back", "/")])
            ) { #expect($0.status == .seeOther) }
        }
        #expect(try await bench.host.call("tasks.get", ["id": .string(id)]).get()["status"] == "completed")
    }

    @Test func aRevokedDeviceIsOutAtOnce() async throws {
        let bench = try await Self.bench()
        let token = try await bench.pair()
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, token)
            let device = try #require(try await bench.host.call("web.devices").get().arrayValue?.first?["id"]?.stringValue)
            _ = try await bench.host.call("web.revoke", ["id": .string(device)]).get()
            try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { #expect($0.status == .unauthorized) }
        }
        #expect(try await bench.host.call("web.devices").get() == [])
    }

    @Test func anInternalFailureIsAPlain500WithTheHeaders() async throws {
        let bench = try await Self.bench()
        let token = try await bench.pair()
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, token)
            bench.host.host.dispatcher.beginDraining()
            try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.status == .internalServerError)
                #expect(Self.text(response) == "The assistant could not answer; try again.", "no internal words on the page")
                #expect(response.headers[HTTPField.Name("X-Frame-Options")!] == "DENY" && response.headers[.contentSecurityPolicy] != nil)
            }
        }
    }

    @Test func base64URLRoundTripsInTheSafeAlphabet() {
        let bytes = Data([0xFB, 0xFF, 0xBF, 0x00, 0x01])
        #expect(Base64URL.encode(bytes) == "-_-_AAE")
        #expect(Base64URL.decode("-_-_AAE") == bytes)
        for length in 0..<6 {
            let data = Data((0..<length).map { UInt8($0 * 61) })
            #expect(Base64URL.decode(Base64URL.encode(data)) == data, "\(length) bytes")
        }
        #expect(Base64URL.decode("not base64!") == nil)
    }

    @Test func everyWordIsInBothLanguages() {
        let english = Set(Catalogue.shared.all(.en).keys)
        let czech = Set(Catalogue.shared.all(.cs).keys)
        #expect(english.count > 40)
        #expect(english.subtracting(czech).isEmpty, "missing in Czech: \(english.subtracting(czech).sorted())")
        #expect(czech.subtracting(english).isEmpty, "missing in English: \(czech.subtracting(english).sorted())")
        // A device's name is put in once: one named like a placeholder is shown as named.
        let asked = Catalogue.shared.text("pair.question", .en, ["name": "{role}", "role": "read"])
        #expect(asked.hasPrefix("Pair this browser as “{role}” (read)?"), "\(asked)")
        // Every key a template names is in the catalogue.
        let templates = [
            PackageResources.head_mustache, PackageResources.today_mustache, PackageResources.settings_mustache,
            PackageResources.confirm_mustache, PackageResources.pair_mustache, PackageResources.message_mustache,
        ]
        for template in templates {
            for match in String(decoding: template, as: UTF8.self).matches(of: /\{\{t\.([a-z_.]+)\}\}/) {
                #expect(english.contains(String(match.output.1)), "\(match.output.1)")
            }
        }
        #expect(Language.preferred("cs-CZ,cs;q=0.9,en;q=0.8") == .cs)
        #expect(Language.preferred("de-DE,en;q=0.5,cs;q=0.4") == .en)
        #expect(Language.preferred("de") == .en)
    }

    @Test func theConfigRefusesAnOpenAddressWithoutTLS() throws {
        #expect(throws: ConfigError.self) { try ConfigLoader.parse("[web]\nenabled = true\nlisten = \"0.0.0.0:8470\"\n", file: "c.toml") }
        do {
            _ = try ConfigLoader.parse("[web]\nlisten = \"192.168.1.5:8470\"\n", file: "c.toml")
            Issue.record("an open address without TLS was accepted")
        } catch let error as ConfigError {
            #expect("\(error)".contains("'web.tls_cert' is required to listen on 192.168.1.5"), "\(error)")
        }
        let loopback = try ConfigLoader.parse(
            "[web]\nenabled = true\nlisten = \"[::1]:9000\"\npublic_url = \"https://phone.example.ts.net\"\n", file: "c.toml")
        #expect(loopback.configuration.web.host == "::1" && loopback.configuration.web.port == 9000)
        #expect(loopback.configuration.web.baseURL == "https://phone.example.ts.net")
        for bad in [
            "listen = \"8470\"", "listen = \"127.0.0.1:99999\"", "public_url = \"ftp://x\"", "tls_cert = \"relative.pem\"",
            "tls_cert = \"/nonexistent/cert.pem\"\ntls_key = \"/nonexistent/key.pem\"",
        ] {
            #expect(throws: ConfigError.self, "\(bad)") { try ConfigLoader.parse("[web]\n\(bad)\n", file: "c.toml") }
        }
    }

    @Test func theTasksPageIsDrawnFromItsDeclaration() async throws {
        let bench = try await Self.bench()
        _ = try await bench.host.call("tasks.add", ["title": "Lecture", "kind": "event", "start": "2026-11-27 10:00", "duration_min": 90]).get()
        let essay = try await bench.host.call("tasks.add", ["title": "Essay", "due": "2026-11-28 15:00", "remind_before_min": 30]).get()
        let id = try #require(essay["id"]?.stringValue)
        let token = try await bench.pair()
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, token)
            let page = try await client.execute(uri: "/tasks", method: .get, headers: [.cookie: cookie]) { Self.text($0) }
            #expect(page.contains("<h1>Tasks</h1>") && page.contains("<h2>To do</h2>") && page.contains("<h2>This week</h2>"), "\(page)")
            #expect(page.contains("<h2>Today</h2>"), "the agenda by day and by week")
            // Snooze where there is a reminder, for an hour; the to-do's row is swiped to Done.
            #expect(page.components(separatedBy: "value=\"tasks.snooze\"").count == 2)
            #expect(
                page.contains(
                    "<input type=\"hidden\" name=\"id\" value=\"\(id)\"><input type=\"hidden\" name=\"minutes\" value=\"60\">"
                        + "<button>Snooze 1 h</button>"
                ))
            #expect(page.components(separatedBy: "<tr data-swipe>").count == 2 && page.contains("class=\"inline swipe\""))
            #expect(page.contains("<th scope=\"col\">Title</th>") && page.contains("<td>Essay</td>") && page.contains("<td>Lecture</td>"))
            // Done only for the to-do, Delete for both; the form asks for what the declaration names.
            #expect(page.components(separatedBy: "value=\"tasks.complete\"").count == 2)
            #expect(page.contains("name=\"id\" value=\"\(id)\""))
            #expect(page.components(separatedBy: "value=\"tasks.delete\"").count == 3)
            #expect(page.contains("<legend>Add a task</legend>") && page.contains("<input name=\"title\" type=\"text\" required>"))
            // The navigation has the pages some plugin declares, and no other.
            #expect(page.contains("href=\"/tasks\" aria-current=\"page\"") && page.contains("href=\"/notices\""))
            #expect(!page.contains("href=\"/printers\"") && !page.contains("href=\"/exams\""))
            let czech = try await client.execute(uri: "/tasks", method: .get, headers: [.cookie: cookie, .acceptLanguage: "cs"]) { Self.text($0) }
            #expect(czech.contains("<h1>Úkoly</h1>") && czech.contains("<h2>Tento týden</h2>") && czech.contains("<legend>Přidat úkol</legend>"))
            #expect(czech.contains("<th scope=\"col\">Název</th>") && czech.contains(">Hotovo</button>"))
            // A bad field: the page again, the error beside that field, what was typed kept, nothing saved.
            let csrf = try Self.csrf(page)
            let refused = try await client.execute(
                uri: "/call", method: .post, headers: Self.posting(cookie: cookie),
                body: Self.form([("method", "tasks.add"), ("title", "Buy filament"), ("category", "hobby"), ("csrf", csrf), ("back", "/tasks")])
            ) { response in
                #expect(response.status == .unprocessableContent)
                return Self.text(response)
            }
            #expect(refused.contains("<input name=\"title\" type=\"text\" required value=\"Buy filament\">"), "\(refused)")
            #expect(
                refused.contains("<input name=\"category\" type=\"text\" value=\"hobby\" aria-invalid=\"true\" aria-describedby=\"error-category\">"))
            #expect(
                refused.contains("<span class=\"error\" id=\"error-category\" role=\"alert\">Invalid params: 'category' 'hobby' is not a category"))
            #expect((try await bench.host.call("tasks.list", ["when": "all"]).get()["tasks"]?.arrayValue ?? []).count == 2, "nothing saved")
            // Added through the page's form, as a person would.
            try await client.execute(
                uri: "/call", method: .post, headers: Self.posting(cookie: cookie),
                body: Self.form([
                    ("method", "tasks.add"), ("title", "Buy filament"), ("due", ""), ("category", "personal"), ("csrf", csrf), ("back", "/tasks"),
                ])
            ) { response in
                #expect(response.status == .seeOther && response.headers[.location] == "/tasks", "\(Self.text(response))")
            }
        }
        let titles = (try await bench.host.call("tasks.list", ["when": "all"]).get()["tasks"]?.arrayValue ?? []).compactMap {
            $0["title"]?.stringValue
        }
        #expect(Set(titles) == ["Lecture", "Essay", "Buy filament"], "\(titles)")
    }

    @Test func theNoticesPageShowsTheLatest() async throws {
        let bench = try await Self.bench()
        _ = try await bench.host.call("notifications.send", ["title": "Print finished", "body": "benchy.gcode, 42 min"]).get()
        let token = try await bench.pair(role: "read")
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, token)
            let page = try await client.execute(uri: "/notices", method: .get, headers: [.cookie: cookie]) { Self.text($0) }
            #expect(page.contains("<strong>Print finished</strong><br>benchy.gcode, 42 min"), "\(page)")
        }
    }

    /// Every plugin's sections name methods that exist, row members and form fields their methods
    /// take, actions that change something, and words in both languages.
    @Test func everyPluginsSectionsHoldTogether() async throws {
        let host = try TestHost(plugins: [LogbookPlugin(), OctoPrintPlugin(), TasksPlugin(), StagPlugin(), KOSPlugin()])
        let table = host.host.dispatcher.methods
        var pages: Set<PageDeclaration.Page> = []
        for supervisor in host.host.supervisors {
            for section in supervisor.manifest.pages {
                pages.insert(section.page)
                let read = try #require(table[section.read.method]?.descriptor, "\(section.read.method)")
                #expect(read.effect == .read, "\(section.read.method)")
                #expect(!section.title.en.isEmpty && !section.title.cs.isEmpty && section.title.en != section.title.cs)
                for action in section.actions {
                    let descriptor = try #require(table[action.method]?.descriptor, "\(action.method)")
                    #expect(descriptor.effect != .read, "\(action.method) changes something")
                    let params = Set(descriptor.params.map(\.name))
                    #expect(Set(action.fromRow.keys).isSubset(of: params), "\(action.method): \(action.fromRow)")
                    #expect(!action.label.en.isEmpty && !action.label.cs.isEmpty)
                    #expect(descriptor.personOnly == nil, "\(action.method) is offered to devices")
                }
                if let form = section.form {
                    let params = Set(try #require(table[form.method]?.descriptor).params.map(\.name))
                    #expect(Set(form.fields.map(\.param)).isSubset(of: params), "\(form.method)")
                }
            }
        }
        #expect(pages == [.tasks, .timetable, .exams, .printers, .logbook], "\(pages)")
    }

    /// A notice posted while the Notices page is open arrives on its live stream, and revoking the
    /// device ends the stream at once.
    @Test func aNewNoticeArrivesLiveAndRevokingEndsTheStream() async throws {
        let bench = try await Self.bench()
        let token = try await bench.pair(role: "read")
        let live = LiveNotices(host: bench.host.host)
        let app = try WebApp.application(host: bench.host.host, live: live, logger: Logger(label: "web-test"))
        try await app.test(.router) { client in
            let cookie = try await Self.session(client, token)
            let page = try await client.execute(uri: "/notices", method: .get, headers: [.cookie: cookie]) { Self.text($0) }
            #expect(page.contains("<ul class=\"notices\" id=\"notices\">") && page.contains("src=\"/assets/app.js\""))
            let device = try #require(try await bench.host.call("web.devices").get().arrayValue?.first?["id"]?.stringValue)
            try await withThrowingTaskGroup(of: String.self) { group in
                group.addTask {
                    try await client.execute(uri: "/notices/live", method: .get, headers: [.cookie: cookie]) { response in
                        #expect(response.status == .ok && response.headers[.contentType] == "text/event-stream; charset=utf-8")
                        return String(buffer: response.body)
                    }
                }
                var opened = live.opened.makeAsyncIterator()
                _ = await opened.next()
                #expect(live.count == 1)
                // A quiet stream says it is still there every 25 s (on the host's clock), so a page
                // closed without a word frees its place: the beat, then the stream waits for the next.
                let start = bench.clock.now
                await bench.clock.waitForSleeper { $0 == start.addingTimeInterval(25) }
                bench.clock.advance(by: 25)
                await bench.clock.waitForSleeper { $0 == start.addingTimeInterval(50) }
                _ = try await bench.host.call("notifications.send", ["title": "Seat free", "body": "KIV/DB1, Thu 3 Dec"]).get()
                _ = try await bench.host.call("web.revoke", ["id": .string(device)]).get()
                let stream = try #require(try await group.next())
                #expect(stream.hasPrefix(": live\n\n: still here\n\nevent: notice\ndata: {"), "\(stream)")
                #expect(stream.contains("\"title\":\"Seat free\"") && stream.contains("\"body\":\"KIV/DB1, Thu 3 Dec\""), "\(stream)")
            }
            #expect(live.count == 0, "the revoked device's stream is gone")
            #expect(bench.host.host.subscribers.count == 0, "and so is its subscription")
        }
    }

    /// Installable: the manifest and the service worker are served to a paired device, and every
    /// page carries the "as of" line the worker shows on a copy served without a network.
    @Test func theAppInstallsAndKeepsItsPagesForOffline() async throws {
        let bench = try await Self.bench()
        let token = try await bench.pair()
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, token)
            let manifest = try await client.execute(uri: "/manifest.webmanifest", method: .get, headers: [.cookie: cookie]) { response in
                #expect(response.headers[.contentType] == "application/manifest+json")
                return try JSONValue.decode(String(buffer: response.body))
            }
            #expect(manifest["start_url"] == "/" && manifest["display"] == "standalone" && manifest["theme_color"] == "#1f5f8b")
            let worker = try await client.execute(uri: "/sw.js", method: .get, headers: [.cookie: cookie]) { Self.text($0) }
            #expect(worker.contains("const KEPT = [\"/\", \"/tasks\", \"/timetable\"]") && worker.contains("caches.delete(CACHE)"))
            let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { Self.text($0) }
            #expect(page.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\" crossorigin=\"use-credentials\">"))
            #expect(page.contains("<p id=\"offline\" class=\"flash\" hidden>As of "), "the line the worker uncovers, exactly as it looks for it")
            let czech = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie, .acceptLanguage: "cs"]) { Self.text($0) }
            #expect(czech.contains("<p id=\"offline\" class=\"flash\" hidden>Stav k "))
        }
    }

    /// The review's findings, each held: a read made destructive by its arguments is no read for a
    /// `read` device and is asked first of a `full` one; a secret is never taken from a page; a
    /// way back is a plain path of this app; a name is no loopback address; origins are the
    /// app's own, default ports as browsers write them.
    @Test func aReadMadeDestructiveByItsArgumentsIsNoRead() async throws {
        let clock = TestClock(now: Self.now)
        let host = try await TestHost.started(plugins: [TasksPlugin(), StagPlugin()], clock: clock) {
            $0.web.enabled = true
            $0.web.publicURL = "http://127.0.0.1:8470"
        }
        let bench = Bench(host: host, clock: clock)
        let reader = try await bench.pair(role: "read")
        let full = try await bench.pair(role: "full")
        let mail = [
            ("method", "stag.students.mail"), ("action_id", "700001"), ("subject", "Room change"), ("body", "PR-102"), ("dry_run", "false"),
        ]
        try await Self.app(bench).test(.router) { client in
            let readCookie = try await Self.session(client, reader)
            let readCSRF = try Self.csrf(try await client.execute(uri: "/settings", method: .get, headers: [.cookie: readCookie]) { Self.text($0) })
            try await client.execute(
                uri: "/call", method: .post, headers: Self.posting(cookie: readCookie),
                body: Self.form(mail + [("csrf", readCSRF), ("confirmed", "yes")])
            ) { response in
                #expect(response.status == .forbidden && Self.text(response).contains("This device may only read"), "\(Self.text(response))")
            }
            let fullCookie = try await Self.session(client, full)
            let fullCSRF = try Self.csrf(try await client.execute(uri: "/settings", method: .get, headers: [.cookie: fullCookie]) { Self.text($0) })
            let question = try await client.execute(
                uri: "/call", method: .post, headers: Self.posting(cookie: fullCookie), body: Self.form(mail + [("csrf", fullCSRF)])
            ) { Self.text($0) }
            #expect(question.contains("Mail “Room change” in Bcc to the students of timetable action 700001?"), "\(question)")
            // A secret parameter is refused before anything, and never written back into a page.
            let secret = [
                ("method", "tasks.caldav.add"), ("name", "home"), ("url", "http://127.0.0.1:9/"), ("username", "me"), ("password", "hunter22"),
            ]
            try await client.execute(
                uri: "/call", method: .post, headers: Self.posting(cookie: fullCookie), body: Self.form(secret + [("csrf", fullCSRF)])
            ) { response in
                #expect(response.status == .forbidden && Self.text(response).contains("'password' is a secret"))
                #expect(!Self.text(response).contains("hunter22"))
            }
        }
        #expect(Form.localPath("/tasks?when=all") == "/tasks?when=all")
        for hostile in ["/\t/evil.example", "//evil.example", "/\\evil.example", "https://evil.example", "/a\nb", "tasks"] {
            #expect(Form.localPath(hostile) == "/", "\(hostile)")
        }
        #expect(WebSettings.isLoopback("127.0.0.1") && WebSettings.isLoopback("::1") && WebSettings.isLoopback("localhost"))
        #expect(!WebSettings.isLoopback("127.example.com") && !WebSettings.isLoopback("0.0.0.0") && !WebSettings.isLoopback("1270.0.0.1"))
        var settings = WebSettings()
        settings.publicURL = "https://Laptop.tail1234.ts.net:443"
        #expect(settings.origins == ["http://127.0.0.1:8470", "http://localhost:8470", "http://[::1]:8470", "https://laptop.tail1234.ts.net"])
        #expect(settings.reachedOverHTTPS, "behind a TLS proxy the cookie is Secure")
        #expect(throws: ConfigError.self) { try ConfigLoader.parse("[web]\npublic_url = \"http://laptop.lan:8470\"\n", file: "c.toml") }
        #expect(throws: ConfigError.self) { try ConfigLoader.parse("[web]\nlisten = \"127.example.com:443\"\n", file: "c.toml") }
    }

    /// A study system whose part of the day is only its teaching week.
    struct TermPlugin: AssistantPlugin {
        struct Term: DayContributing {
            func dayItems(_ query: DayQuery) async throws -> [DayItem] { [] }
            func studyWeek(_ query: DayQuery) async throws -> StudyWeek? { StudyWeek(semester: "B251", number: 3, parity: .odd) }
        }

        var info: PluginInfo { PluginInfo(id: "term", version: "1", summary: "a semester") }
        var commands: [PluginCommand<Term>] { [] }
        func setup(_ context: PluginContext) async throws -> PluginSetup<Term> { .ready(Term()) }
    }

    @Test func todaySaysTheTeachingWeekOfEachStudySystem() async throws {
        let bench = try await Self.bench([TasksPlugin(), TermPlugin()])
        let token = try await bench.pair(role: "read")
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, token)
            let page = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie]) { Self.text($0) }
            #expect(page.contains("<p class=\"weeks\"><span>TERM: teaching week 3, odd</span> </p>"), "\(page)")
            let czech = try await client.execute(uri: "/", method: .get, headers: [.cookie: cookie, .acceptLanguage: "cs"]) { Self.text($0) }
            #expect(czech.contains("<span>TERM: 3. výukový týden, lichý</span>"), "\(czech)")
        }
        // Tasks is no study system: it says no week.
        #expect(try await bench.host.call("today").get()["weeks"] == [["plugin": "term", "semester": "B251", "teaching_week": 3, "parity": "odd"]])
    }

    /// A plugin with two week grids, one dated and one by weekday, as IS/STAG's and KOS's are: the
    /// Timetable merges them into one week, moves by week, and marks today.
    struct WeekPlugin: AssistantPlugin {
        var info: PluginInfo {
            PluginInfo(
                id: "week", version: "1", summary: "two timetables",
                pages: [
                    PageDeclaration(
                        .timetable, .init("Dated", "Datovaný"),
                        read: .init(method: "week.dated", params: ["from": "{week_start}", "to": "{week_last}"])),
                    PageDeclaration(.timetable, .init("By weekday", "Podle dnů"), read: .init(method: "week.slots")),
                ])
        }

        var commands: [PluginCommand<Void>] {
            [
                PluginCommand(
                    "dated", "dated classes", params: [ParamSpec("from", .date, help: "first day"), ParamSpec("to", .date, help: "last day")],
                    result: .any("events"), effect: .read
                ) { _, params, _ in
                    let from = params.string("from") ?? "?"
                    return [
                        "events": [
                            [
                                "date": "2026-11-24", "start": "09:15", "end": "10:45", "subject": "KIV/PT", "room": "UC-336", "type": "Př",
                                "teachers": ["Ing. Jana Nová", "Petr Malý"], "name": "Programovací techniky",
                            ],
                            ["date": "2026-12-02", "start": "13:00", "end": "14:30", "subject": "KIV/DB1", "room": "UU-303", "type": "Cv"],
                            [
                                "date": .string(from), "start": "07:00", "end": "07:30", "subject": .string("asked from \(from)"), "room": "",
                                "type": "",
                            ],
                        ]
                    ]
                }.view(
                    ResultView(
                        rows: "events",
                        grid: .init(
                            day: "date", start: "start", end: "end", title: "subject", place: "room", mark: "type",
                            details: [.init("name", "Subject"), .init("teachers", "Teachers")]))),
                PluginCommand("slots", "weekday slots", result: .any("slots"), effect: .read) { _, _, _ in
                    ["slots": [["day": 1, "start": "11:00", "end": "12:30", "course": "BI-ZMA", "room": "T9:105", "kind": "lecture"]]]
                }.view(ResultView(rows: "slots", grid: .init(day: "day", start: "start", end: "end", title: "course", place: "room", mark: "kind"))),
            ]
        }

        func setup(_ context: PluginContext) async throws -> PluginSetup<Void> { .ready(()) }
    }

    @Test func theTimetableMergesTheWeekGrids() async throws {
        let bench = try await Self.bench([WeekPlugin()])
        let token = try await bench.pair(role: "read")
        try await Self.app(bench).test(.router) { client in
            let cookie = try await Self.session(client, token)
            let page = try await client.execute(uri: "/timetable", method: .get, headers: [.cookie: cookie]) { Self.text($0) }
            let days = page.components(separatedBy: "<h3>").dropFirst().map { String($0.prefix { $0 != "\n" }) }
            #expect(days.count == 7, "\(page)")
            #expect(days[0].hasPrefix("Monday 23 November</h3>"))
            #expect(days[0].contains("11:00–12:30</span> BI-ZMA <span class=\"kind\">lecture</span>"))
            #expect(days[0].contains("asked from 2026-11-23"), "the read asked for the week shown")
            #expect(days[0].range(of: "07:00")!.lowerBound < days[0].range(of: "11:00")!.lowerBound, "in time order across plugins")
            #expect(days[1].contains("KIV/PT <span class=\"kind\">Př</span> <span class=\"place\">UC-336</span>"))
            // A tap on a class shows its subject and teachers; a class without them is no <details>.
            #expect(
                days[1].contains(
                    "<details><summary><span class=\"when\">09:15–10:45</span> KIV/PT <span class=\"kind\">Př</span> "
                        + "<span class=\"place\">UC-336</span></summary><dl class=\"card\"><dt>Subject</dt><dd>Programovací techniky</dd>"
                        + "<dt>Teachers</dt><dd>Ing. Jana Nová, Petr Malý</dd></dl>"
                        + "</details>"), "\(days[1])")
            #expect(days[0].components(separatedBy: "<details>").count == 1)
            #expect(!page.contains("KIV/DB1"), "next week's class is not this week's")
            #expect(page.contains("<li class=\"today\" aria-current=\"date\"><h3>Thursday 26 November</h3>"))
            #expect(page.contains("href=\"?week=2026-11-16\"") && page.contains("href=\"?week=2026-11-30\""))
            let next = try await client.execute(uri: "/timetable?week=2026-11-30", method: .get, headers: [.cookie: cookie]) { Self.text($0) }
            #expect(next.contains("KIV/DB1") && next.contains("asked from 2026-11-30") && !next.contains("KIV/PT"))
            #expect(!next.contains("class=\"today\""))
            let czech = try await client.execute(uri: "/timetable", method: .get, headers: [.cookie: cookie, .acceptLanguage: "cs"]) { Self.text($0) }
            #expect(czech.contains("<h1>Rozvrh</h1>") && czech.contains("Další týden"))
            #expect(czech.contains("<dt>Vyučující</dt><dd>Ing. Jana Nová, Petr Malý</dd>"))
        }
    }
}
