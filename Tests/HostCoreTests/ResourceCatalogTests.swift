import AssistantClient
import Testing

/// The rules behind `assistantctl mcp`'s resources, built from what manifests declare (as
/// `plugins.list` publishes it), without a protocol in between.
struct ResourceCatalogTests {
    static func view(
        _ uri: String, _ method: String, _ params: JSONValue = [:], part: String? = nil, state: String? = nil,
        topics: [String], prompts: [String] = [], mime: String = "application/json"
    ) -> JSONValue {
        ResourceDeclaration(
            uri: uri, name: uri, description: "", mimeType: mime,
            reads: [.init(method: method, params: params, part: part, onlyState: state)], topics: topics, prompts: prompts
        ).asJSON
    }

    /// Three plugins as `plugins.list` lists them: one always set up when ready, two that say
    /// so through a read of their own, each with part of a shared view; and a printer template.
    static func plugins(ready: Set<String>) -> JSONValue {
        func entry(_ id: String, _ views: [JSONValue], setUp: ResourceDeclaration.SetUp? = nil) -> JSONValue {
            [
                "id": .string(id), "state": ready.contains(id) ? "ready" : "failed", "resources": .array(views),
                "resources_set_up": setUp?.asJSON ?? .null,
            ]
        }
        return [
            entry(
                "tasks",
                [
                    view(
                        "assistant://tasks/agenda/today", "tasks.agenda", ["from": "{today}", "to": "{tomorrow}"], topics: ["tasks.*"],
                        prompts: ["brief"]),
                    view("assistant://tasks/overdue", "tasks.list", ["when": "overdue"], topics: ["tasks.*"], prompts: ["brief", "plan"]),
                ]),
            entry(
                "stag",
                [
                    view("assistant://stag/timetable/week", "stag.timetable", topics: ["stag.timetable.*"], prompts: ["plan"]),
                    view("assistant://exams/upcoming", "stag.exams", part: "stag", state: "registered", topics: ["stag.exam.*"], prompts: ["brief"]),
                ], setUp: .init(method: "stag.status", member: "accounts")),
            entry(
                "kos", [view("assistant://exams/upcoming", "kos.exams", ["mine": true], part: "kos", topics: ["kos.exam.*"])],
                setUp: .init(method: "kos.status", member: "set_up")),
            entry(
                "octoprint",
                [
                    view("assistant://octoprint/{printer}/status", "octoprint.status", ["printer": "{printer}"], topics: ["octoprint.print.*"]),
                    view(
                        "assistant://octoprint/{printer}/webcam", "octoprint.webcam.snapshot", ["printer": "{printer}", "out": "{file}"],
                        topics: ["octoprint.print.*"], mime: "image/jpeg"),
                ]),
        ]
    }

    @Test func onlyPluginsThatAreReadyAndSetUpHaveViews() {
        let all = Self.plugins(ready: ["tasks", "stag", "kos", "octoprint"])
        #expect(ResourceCatalog.setUpReads(all) == ["stag.status", "kos.status"])
        let none = ResourceCatalog(plugins: all, setUp: ["stag.status": ["accounts": []], "kos.status": ["set_up": false]])
        #expect(none.resources.map(\.uri) == ["assistant://tasks/agenda/today", "assistant://tasks/overdue"])
        #expect(none.templates.map(\.uri) == ["assistant://octoprint/{printer}/status", "assistant://octoprint/{printer}/webcam"])
        let both = ResourceCatalog(
            plugins: Self.plugins(ready: ["stag", "kos"]), setUp: ["stag.status": ["accounts": [["name": "main"]]], "kos.status": ["set_up": true]])
        #expect(both.resources.map(\.uri) == ["assistant://stag/timetable/week", "assistant://exams/upcoming"])
        #expect(both.templates.isEmpty, "OctoPrint failed")
        // A shared view has the reads of each plugin that declares it.
        #expect(both.resources.last?.reads.map(\.method) == ["stag.exams", "kos.exams"])
        // A failed plugin has none, whatever its own read says.
        #expect(ResourceCatalog(plugins: Self.plugins(ready: []), setUp: ["stag.status": ["accounts": [["name": "main"]]]]).resources.isEmpty)
        #expect(ResourceCatalog.setUpReads(Self.plugins(ready: ["tasks"])) == [], "a plugin that is not ready is not asked")
    }

    @Test func readsAreTheDaemonCallsOnTheDaysAsked() throws {
        let catalog = ResourceCatalog(
            plugins: Self.plugins(ready: ["tasks", "stag"]), setUp: ["stag.status": ["accounts": [["name": "main"]]]])
        let today = catalog.reads("assistant://tasks/agenda/today", today: "2026-11-26", weekEnd: "2026-12-03", tomorrow: "2026-11-27")
        #expect(today?.1 == [.init(method: "tasks.agenda", params: ["from": "2026-11-26", "to": "2026-11-27"])])
        let exams = catalog.reads("assistant://exams/upcoming", today: "", weekEnd: "", tomorrow: "")
        #expect(exams?.1.map(\.method) == ["stag.exams"], "KOS is not set up")
        #expect(catalog.reads("assistant://tasks/../vault", today: "", weekEnd: "", tomorrow: "") == nil)
        #expect(catalog.reads("assistant://octoprint/mk4/status", today: "", weekEnd: "", tomorrow: "") == nil, "OctoPrint is not ready")
        #expect(catalog.uris(forPrompt: "brief") == ["assistant://tasks/agenda/today", "assistant://tasks/overdue", "assistant://exams/upcoming"])
        #expect(catalog.uris(forPrompt: "plan") == ["assistant://tasks/overdue", "assistant://stag/timetable/week"])
    }

    @Test func aTemplateTakesOneSegmentAndABinaryViewAFile() throws {
        let catalog = ResourceCatalog(plugins: Self.plugins(ready: ["octoprint"]))
        let status = try #require(catalog.reads("assistant://octoprint/my%20printer/status", today: "", weekEnd: "", tomorrow: ""))
        #expect(status.1 == [.init(method: "octoprint.status", params: ["printer": "my printer"])])
        let webcam = try #require(catalog.reads("assistant://octoprint/mk4/webcam", today: "", weekEnd: "", tomorrow: "", file: "/tmp/x/view"))
        #expect(webcam.0.mimeType == "image/jpeg")
        #expect(webcam.1 == [.init(method: "octoprint.webcam.snapshot", params: ["printer": "mk4", "out": "/tmp/x/view"])])
        for uri in ["assistant://octoprint//status", "assistant://octoprint/a/b/status", "assistant://octoprint/mk4/statusx"] {
            #expect(catalog.reads(uri, today: "", weekEnd: "", tomorrow: "") == nil, "\(uri)")
        }
    }

    @Test func registeredExamsAreKeptAndEachSystemHasItsPart() {
        let stag = ResourceCatalog.Read(method: "stag.exams", params: [:], part: "stag", onlyState: "registered")
        let kos = ResourceCatalog.Read(method: "kos.exams", params: ["mine": true], part: "kos")
        let content = ResourceCatalog.content([
            (stag, ["terms": [["id": 1, "state": "registered"], ["id": 2, "state": "open"]], "stale": false]),
            (kos, ["exams": [["id": "x"]]]),
        ])
        #expect(content == ["stag": ["terms": [["id": 1, "state": "registered"]], "stale": false], "kos": ["exams": [["id": "x"]]]])
    }

    @Test func noticesUpdateTheViewsTheyChange() {
        // By the declarations, set up or not: a watched view stays watched across a login.
        let views = ResourceCatalog(plugins: Self.plugins(ready: []))
        let watched = ["assistant://tasks/agenda/today", "assistant://exams/upcoming", "assistant://octoprint/mk4/status"]
        #expect(views.changed(by: "tasks.reminder", among: watched) == ["assistant://tasks/agenda/today"])
        #expect(views.changed(by: "stag.exam.seat_freed", among: watched) == ["assistant://exams/upcoming"])
        #expect(views.changed(by: "kos.exam.new", among: watched) == ["assistant://exams/upcoming"])
        #expect(views.changed(by: "octoprint.print.done", among: watched) == ["assistant://octoprint/mk4/status"])
        #expect(views.changed(by: "host.sink.failed", among: watched) == [])
    }
}

extension ResultObject {
    /// As `plugins.list` writes it (null only if it could not be written, which fails the test's reads).
    fileprivate var asJSON: JSONValue { (try? JSONValue(encoding: self)) ?? .null }
}
