import Foundation
import HostCore
import Logbook
import Testing

@Suite(.timeLimit(.minutes(1)))
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
        let readme = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../README.md").standardized.path, encoding: .utf8)
        for command in manifest.commands {
            // The README groups siblings: `logbook.flights.get` / `.update` …
            let last = command.name.split(separator: ".").last.map(String.init) ?? ""
            #expect(readme.contains("`\(command.name)") || readme.contains("`.\(last)`"), "README documents \(command.name)")
        }
        for topic in manifest.topics where topic.topic != "logbook.report" { #expect(readme.contains(topic.topic)) }
        #expect(manifest.commands.allSatisfy { !$0.summary.isEmpty && $0.params.allSatisfy { !$0.help.isEmpty } })
    }
}
