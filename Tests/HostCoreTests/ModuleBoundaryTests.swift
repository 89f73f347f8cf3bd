import AssistantTesting
import Foundation
import Testing

/// Plugins build on the kit alone: no plugin (nor the example) imports the runtime or another
/// plugin, and the kit does not import the runtime.
@Suite struct ModuleBoundaryTests {
    static let plugins = ["Logbook", "OctoPrint", "Tasks", "Stag", "KOS"]

    static func imports(under folder: String) throws -> [(file: String, module: String)] {
        let root = "\(Peers.packageRoot)/\(folder)"
        let files = try #require(FileManager.default.subpaths(atPath: root)).filter { $0.hasSuffix(".swift") }
        var found: [(String, String)] = []
        for file in files {
            let text = try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8)
            for line in text.split(separator: "\n") {
                let words = line.split(separator: " ")
                guard let at = words.firstIndex(of: "import"), at + 1 < words.count, words[..<at].allSatisfy({ $0.hasPrefix("@") }) else { continue }
                found.append(("\(folder)/\(file)", String(words[at + 1])))
            }
        }
        return found
    }

    @Test func pluginsImportTheKitNotTheRuntimeNorEachOther() throws {
        for plugin in Self.plugins {
            let imports = try Self.imports(under: "Sources/Plugins/\(plugin)")
            #expect(imports.contains { $0.module == "PluginKit" }, "\(plugin) builds on the kit")
            let crossing = imports.filter { $0.module == "HostCore" || (Self.plugins.contains($0.module) && $0.module != plugin) }
            #expect(crossing.isEmpty, "\(crossing)")
        }
        let example = try Self.imports(under: "Tests/ExamplePlugin")
        #expect(example.contains { $0.module == "PluginKit" }, "the scan found the example's imports")
        #expect(example.filter { $0.module == "HostCore" }.isEmpty)
    }

    @Test func theKitDoesNotImportTheRuntime() throws {
        let imports = try Self.imports(under: "Sources/PluginKit")
        #expect(imports.count > 20, "the scan found the kit's imports")
        #expect(imports.filter { $0.module == "HostCore" }.isEmpty)
    }

    /// The kit links what it imports and nothing else (no TOMLKit, Subprocess or service
    /// lifecycle that only the runtime uses), so a plugin does not build them for nothing.
    @Test func theKitLinksOnlyWhatItImports() throws {
        let manifest = try String(contentsOfFile: "\(Peers.packageRoot)/Package.swift", encoding: .utf8)
        let start = try #require(manifest.range(of: "let kitDependencies"))
        let end = try #require(manifest.range(of: "]\n", range: start.upperBound..<manifest.endIndex))
        let linked = Set(
            manifest[start.upperBound..<end.lowerBound].matches(of: /\.product\(name: "([A-Za-z0-9_]+)"/).map {
                // swift-nio's product for the module NIOFileSystem.
                String($0.output.1) == "_NIOFileSystem" ? "NIOFileSystem" : String($0.output.1)
            })
        let imported = Set(try Self.imports(under: "Sources/PluginKit").map(\.module))
            // Foundation's parts and the toolchain's own modules, the kit's sibling targets, and
            // `@_exported import struct Logging.Logger` (read as the word after import).
            .subtracting(["Foundation", "FoundationXML", "Synchronization", "AssistantRPC", "CICal", "Dispatch", "Glibc", "struct"])
        #expect(linked.count > 5, "the scan found the kit's dependencies")
        #expect(
            linked == imported, "linked but not imported: \(linked.subtracting(imported)); imported but not linked: \(imported.subtracting(linked))")
    }
}
