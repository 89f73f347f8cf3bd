import AssistantClient
import Testing

/// The rules behind `assistantctl mcp`'s resources, without a protocol in between.
struct ResourceCatalogTests {
    static func status(_ ready: [String]) -> JSONValue {
        ["plugins": .array(ready.map { ["id": .string($0), "state": "ready"] } + [["id": "octoprint", "state": "failed"]])]
    }

    @Test func onlyPluginsThatAreSetUpHaveResources() {
        let none = ResourceCatalog(status: Self.status(["tasks", "stag", "kos"]), setUp: ["stag": ["accounts": []], "kos": ["set_up": false]])
        #expect(none.resources.map(\.uri) == ["assistant://tasks/agenda/today", "assistant://tasks/agenda/week", "assistant://tasks/overdue"])
        let both = ResourceCatalog(
            status: Self.status(["stag", "kos"]), setUp: ["stag": ["accounts": [["name": "main"]]], "kos": ["set_up": true]])
        #expect(both.resources.map(\.uri) == ["assistant://stag/timetable/week", "assistant://kos/timetable/week", "assistant://exams/upcoming"])
        // A failed plugin has none, whatever its own status says.
        #expect(ResourceCatalog(status: Self.status([]), setUp: ["stag": ["accounts": [["name": "main"]]]]).resources.isEmpty)
    }

    @Test func readsAreTheDaemonCallsOnTheDaysAsked() {
        let catalog = ResourceCatalog(status: Self.status(["tasks", "stag"]), setUp: ["stag": ["accounts": [["name": "main"]]]])
        let today = catalog.reads("assistant://tasks/agenda/today", today: "2026-11-26", weekEnd: "2026-12-03", tomorrow: "2026-11-27")
        #expect(today == [.init(method: "tasks.agenda", params: ["from": "2026-11-26", "to": "2026-11-27"])])
        let exams = catalog.reads("assistant://exams/upcoming", today: "", weekEnd: "", tomorrow: "")
        #expect(exams?.map(\.method) == ["stag.exams"], "KOS is not set up")
        #expect(catalog.reads("assistant://kos/timetable/week", today: "", weekEnd: "", tomorrow: "") == nil)
        #expect(catalog.reads("assistant://tasks/../vault", today: "", weekEnd: "", tomorrow: "") == nil)
        #expect(catalog.reads("assistant://octoprint/mk4/status", today: "", weekEnd: "", tomorrow: "") == nil, "OctoPrint is not ready")
    }

    @Test func printerNamesAreOneSegment() {
        #expect(ResourceCatalog.printer("assistant://octoprint/mk4/status", suffix: "/status") == "mk4")
        #expect(ResourceCatalog.printer("assistant://octoprint/my%20printer/webcam", suffix: "/webcam") == "my printer")
        #expect(ResourceCatalog.printer("assistant://octoprint//status", suffix: "/status") == nil)
        #expect(ResourceCatalog.printer("assistant://octoprint/a/b/status", suffix: "/status") == nil)
        #expect(ResourceCatalog.printer("assistant://tasks/overdue", suffix: "/status") == nil)
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

    @Test func noticesUpdateTheResourcesTheyChange() {
        let watched = ["assistant://tasks/agenda/today", "assistant://exams/upcoming", "assistant://octoprint/mk4/status"]
        #expect(ResourceCatalog.changed(by: "tasks.reminder", among: watched) == ["assistant://tasks/agenda/today"])
        #expect(ResourceCatalog.changed(by: "stag.exam.seat_freed", among: watched) == ["assistant://exams/upcoming"])
        #expect(ResourceCatalog.changed(by: "octoprint.print.done", among: watched) == ["assistant://octoprint/mk4/status"])
        #expect(ResourceCatalog.changed(by: "host.sink.failed", among: watched) == [])
    }
}
