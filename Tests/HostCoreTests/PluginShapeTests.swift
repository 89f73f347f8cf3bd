import AssistantTesting
import Foundation
import Testing

/// Every plugin has the same shape, so a newcomer finds the same thing in the same place in all
/// of them and a new plugin follows it: its declarations at the top (`<Name>Plugin`, `…Manifest`,
/// `…Params`, `…Config`, `…Errors`, `…Topic`, `…Fuzzing`), its commands, result models, SQL and
/// jobs each in one folder, and a login flow, where there is one, in `Login/`.
@Suite struct PluginShapeTests {
    static let topFiles = ["Plugin", "Manifest", "Params", "Config", "Errors", "Topic", "Fuzzing"]
    static let folders = ["Commands", "Models", "Store", "Jobs"]

    /// Every folder under Sources/Plugins, so that a new plugin is held to the shape too.
    static func plugins() throws -> [String] {
        let root = "\(Peers.packageRoot)/Sources/Plugins"
        return try FileManager.default.contentsOfDirectory(atPath: root).filter { !$0.hasPrefix(".") }.sorted()
    }

    static func files(_ plugin: String) throws -> [(path: String, text: String)] {
        let root = "\(Peers.packageRoot)/Sources/Plugins/\(plugin)"
        return try (FileManager.default.subpaths(atPath: root) ?? []).filter { $0.hasSuffix(".swift") }.sorted().map {
            ($0, try String(contentsOfFile: "\(root)/\($0)", encoding: .utf8))
        }
    }

    @Test func everyPluginHasTheSameFoldersAndTopFiles() throws {
        let plugins = try Self.plugins()
        #expect(Set(["KOS", "Logbook", "OctoPrint", "Stag", "Tasks"]).isSubset(of: plugins), "the scan found the plugins: \(plugins)")
        for plugin in plugins {
            let paths = Set(try Self.files(plugin).map(\.path))
            for top in Self.topFiles { #expect(paths.contains("\(plugin)\(top).swift"), "\(plugin) has no \(plugin)\(top).swift") }
            for folder in Self.folders {
                #expect(paths.contains { $0.hasPrefix(folder + "/") }, "\(plugin) has no \(folder)/")
            }
        }
    }

    @Test func theSQLTheConfigTheJobsAndTheLoginAreEachInTheirPlace() throws {
        for plugin in try Self.plugins() {
            let files = try Self.files(plugin)
            // Tables are made by the plugin's migrations, in Store/.
            let tables = files.filter { $0.text.contains("CREATE TABLE") }.map(\.path)
            #expect(!tables.isEmpty && tables.allSatisfy { $0.hasPrefix("Store/") }, "\(plugin): CREATE TABLE in \(tables)")
            // The configuration is declared in one file of its name.
            let config = files.filter { $0.text.contains(": PluginOptions {") }.map(\.path)
            #expect(config == ["\(plugin)Config.swift"], "\(plugin): the config struct is in \(config)")
            // Each job's handler is defined in Jobs/.
            let manifest = try #require(files.first { $0.path == "\(plugin)Manifest.swift" }?.text)
            let handlers = manifest.matches(of: /\{ try await \$0\.([A-Za-z]+)\(\) \}/).map { String($0.output.1) }
            #expect(!handlers.isEmpty, "\(plugin): the scan found its jobs")
            for handler in handlers {
                let defined = files.filter { $0.text.contains("func \(handler)(") }.map(\.path)
                #expect(defined.count == 1 && defined[0].hasPrefix("Jobs/"), "\(plugin): job \(handler) is defined in \(defined)")
            }
            // A login flow (an upstream's sign-in, an app key's approval) has a folder of its own.
            let logins = files.map(\.path).filter { path in
                let name = path.split(separator: "/").last.map(String.init) ?? path
                return ["Login", "Auth", "AppKey", "OAuth"].contains { name.contains($0) }
            }
            #expect(logins.allSatisfy { $0.hasPrefix("Login/") }, "\(plugin): a login flow outside Login/: \(logins)")
        }
    }
}
