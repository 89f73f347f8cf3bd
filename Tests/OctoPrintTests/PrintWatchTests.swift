import AssistantTesting
import Foundation
import HostCore
import NIOConcurrencyHelpers
import Testing

@testable import OctoPrint

/// The print state machine on its own: every notice once, from either source.
@Suite(.stopsTestHosts, .timeLimit(.minutes(1)))
struct PrintWatchTests {
    final class Posted: Sendable {
        let items = NIOLockedValueBox<[(topic: String, body: String, snapshot: Bool)]>([])
        var topics: [String] { items.withLockedValue { $0.map(\.topic) } }
    }

    func make(now: NIOLockedValueBox<Date> = NIOLockedValueBox(Date(timeIntervalSince1970: 0))) -> (PrintWatch, Posted) {
        let posted = Posted()
        let watch = PrintWatch(
            printer: "mk3", settings: .init(milestones: [25, 50, 75], bedCooledBelow: 40, offlineAfter: 300),
            now: { now.withLockedValue { $0 } }
        ) { topic, _, body, _, _, snapshot in posted.items.withLockedValue { $0.append((topic.rawValue, body, snapshot)) } }
        return (watch, posted)
    }

    func state(printing: Bool = false, paused: Bool = false, error: Bool = false, text: String = "Operational") -> JSONValue {
        [
            "text": .string(text),
            "flags": [
                "printing": .bool(printing), "paused": .bool(paused), "error": .bool(error), "closedOrError": .bool(error),
                "operational": .bool(!error),
            ],
        ]
    }
    let job: JSONValue = ["file": ["path": "part.gcode", "name": "part.gcode"]]

    @Test func pollingAloneTellsTheWholeStory() async {
        let (w, posted) = make()
        await w.observe(state: state(printing: true), job: job, progress: ["completion": 10], bed: 60, fromPush: false)
        await w.observe(state: state(printing: true), job: job, progress: ["completion": 55], bed: 60, fromPush: false)
        await w.observe(state: state(paused: true), job: job, progress: ["completion": 56], bed: 60, fromPush: false)
        await w.observe(state: state(printing: true), job: job, progress: ["completion": 80], bed: 60, fromPush: false)
        await w.observe(state: state(), job: job, progress: ["completion": 100, "printTime": 3725], bed: 58, fromPush: false)
        await w.observe(state: state(), job: job, progress: ["completion": 100], bed: 39, fromPush: false)
        await w.observe(state: state(), job: job, progress: ["completion": 100], bed: 30, fromPush: false)
        #expect(
            posted.topics == [
                "octoprint.print.started", "octoprint.print.progress", "octoprint.print.progress", "octoprint.print.paused",
                "octoprint.print.resumed",
                "octoprint.print.progress", "octoprint.print.done", "octoprint.bed.cooled",
            ])
        let done = posted.items.withLockedValue { $0.first { $0.topic == "octoprint.print.done" } }
        #expect(done?.body.contains("1 h 2 min") == true)
        #expect(done?.snapshot == true)
    }

    @Test func failedAndCancelledByPolling() async {
        let (w, posted) = make()
        await w.observe(state: state(printing: true), job: job, progress: ["completion": 30], bed: nil, fromPush: false)
        await w.observe(state: state(error: true, text: "Error"), job: job, progress: ["completion": 30], bed: nil, fromPush: false)
        await w.observe(state: state(printing: true), job: ["file": ["path": "other.gcode"]], progress: ["completion": 5], bed: nil, fromPush: false)
        await w.observe(state: state(), job: ["file": ["path": "other.gcode"]], progress: ["completion": 6], bed: nil, fromPush: false)
        #expect(
            posted.topics.filter { $0 != "octoprint.print.progress" } == [
                "octoprint.print.started", "octoprint.print.failed", "octoprint.printer.error", "octoprint.print.started",
                "octoprint.print.cancelled",
            ])
    }

    @Test func eventsAndStateTogetherDoNotDuplicate() async {
        let (w, posted) = make()
        await w.handle(push: ["event": ["type": "PrintStarted", "payload": ["path": "part.gcode"]]])
        await w.handle(push: ["current": ["state": state(printing: true), "job": job, "progress": ["completion": 30]]])
        await w.observe(state: state(printing: true), job: job, progress: ["completion": 31], bed: nil, fromPush: false)
        await w.handle(push: ["event": ["type": "PrintDone", "payload": ["path": "part.gcode", "time": 42]]])
        // Late state still showing the finished print: not a new start.
        await w.handle(push: ["current": ["state": state(printing: true), "job": job, "progress": ["completion": 100]]])
        await w.observe(state: state(), job: job, progress: ["completion": 100], bed: nil, fromPush: false)
        #expect(posted.topics.filter { $0 == "octoprint.print.started" }.count == 1)
        #expect(posted.topics.filter { $0 == "octoprint.print.progress" }.count == 3)
        #expect(posted.topics.filter { $0 == "octoprint.print.done" }.count == 1)
        // The same file printed again is a new print.
        await w.handle(push: ["event": ["type": "PrintStarted", "payload": ["path": "part.gcode"]]])
        #expect(posted.topics.filter { $0 == "octoprint.print.started" }.count == 2)
    }

    @Test func offlineOnlyAfterTheThresholdAndDisconnectOnce() async {
        let now = NIOLockedValueBox(Date(timeIntervalSince1970: 1000))
        let (w, posted) = make(now: now)
        await w.connection(true)
        await w.connection(false)
        await w.connection(false)
        await w.unreachable("connection refused")
        now.withLockedValue { $0 = $0.addingTimeInterval(299) }
        await w.unreachable("connection refused")
        #expect(!posted.topics.contains("octoprint.printer.offline"))
        now.withLockedValue { $0 = $0.addingTimeInterval(2) }
        await w.unreachable("connection refused")
        await w.unreachable("connection refused")
        await w.reachable()
        #expect(posted.topics == ["octoprint.printer.disconnected", "octoprint.printer.offline"])
    }
}
