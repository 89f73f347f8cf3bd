import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import KOS

/// The README's KOS command table is generated from the manifest; this keeps them the same
/// (`UPDATE_README=1 swift test --filter KOSManifestTests` rewrites the block).
@Suite(.stopsTestHosts)
struct KOSManifestTests {
    @Test func everyContractCommandExistsAndTheREADMETableIsGenerated() throws {
        let manifest = KOSPlugin().manifest
        let names = Set(manifest.commands.map(\.name))
        let contract = [
            "setup", "login", "login.code", "status", "logout", "profile", "semester", "timetable", "courses", "results", "course", "exams", "events",
            "people.search", "office", "export.ics", "exams.watch", "exams.watches", "exams.unwatch",
        ]
        for name in contract { #expect(names.contains("kos." + name), "kos.\(name) is in the issue's contract") }
        #expect(
            manifest.topics.map(\.topic).sorted() == [
                "kos.auth.expired", "kos.class.soon", "kos.event.new", "kos.exam.deadline", "kos.exam.new", "kos.exam.seat_freed",
                "kos.exam.signup_closing", "kos.exam.tomorrow",
                "kos.result.changed",
                "kos.upstream.recovered", "kos.upstream.unreachable",
            ])
        #expect(manifest.jobs.map(\.id) == ["refresh", "watch", "evening"], "run as kos.refresh, kos.watch, kos.evening")
        #expect(manifest.commands.first { $0.name == "kos.setup" }?.params.first { $0.name == "client_secret" }?.type.name == "secret")

        let (readme, block) = try READMETable.sync(manifest, marker: "kos-commands")
        #expect(
            readme.contains(block), "README's kos command table differs from the manifest; run UPDATE_README=1 swift test --filter KOSManifestTests")
        let section = try #require(READMETable.section(readme, heading: "KOS ("))
        for topic in manifest.topics { #expect(section.contains("`\(topic.topic)`"), "the KOS section names \(topic.topic)") }
        for option in manifest.configOptions { #expect(section.contains("`\(option.key)`"), "the KOS section names \(option.key)") }
        for code in 1401...1406 { #expect(section.contains("| \(code) |"), "the KOS section lists error \(code)") }
        #expect(manifest.commands.allSatisfy { !$0.summary.isEmpty && $0.params.allSatisfy { !$0.help.isEmpty } })
    }
}
