import AssistantTesting
import Foundation
import HostCore
import Logbook
import Testing

/// The command contract, and the README's full command table generated from the
/// manifest (`UPDATE_README=1 swift test --filter LogbookManifestTests` rewrites it).
@Suite(.stopsTestHosts, .timeLimit(.minutes(1)))
struct LogbookManifestTests {
    @Test func everyCommandIsInTheContractAndTheREADME() throws {
        let manifest = LogbookPlugin().manifest
        let names = Set(manifest.commands.map(\.name))
        let contract = [
            "profile.get", "profile.set", "aircraft.add", "aircraft.list", "aircraft.update", "aircraft.delete", "flights.add", "flights.get",
            "flights.update", "flights.delete", "flights.list", "fstd.add", "fstd.list", "fstd.delete", "certificates.add", "certificates.list",
            "certificates.delete", "airports.search", "airports.add", "totals", "totals.starting.set", "limits", "currency", "medical", "night",
            "import", "export", "report.mail",
        ].map { "logbook." + $0 }
        for name in contract { #expect(names.contains(name), "\(name) is in the issue's contract") }
        let (readme, block) = try READMETable.sync(manifest, marker: "logbook-commands")
        #expect(
            readme.contains(block),
            "README's Logbook command table differs from the manifest; run UPDATE_README=1 swift test --filter LogbookManifestTests")
        let section = try #require(READMETable.section(readme, heading: "Logbook ("))
        for topic in manifest.topics where topic.topic != "logbook.report" {
            #expect(section.contains("`\(topic.topic)`"), "the Logbook section names \(topic.topic)")
        }
        for option in manifest.configOptions { #expect(section.contains("`\(option.key)`"), "the Logbook section names \(option.key)") }
        #expect(manifest.commands.allSatisfy { !$0.summary.isEmpty && $0.params.allSatisfy { !$0.help.isEmpty } })
    }
}
