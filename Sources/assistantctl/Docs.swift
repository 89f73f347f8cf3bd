import ArgumentParser
import AssistantClient
import Foundation

/// Writes (or checks) the generated reference pages from what the running daemon publishes.
struct Docs: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Write the generated reference pages (docs/plugins/*.md, docs/host.md, docs/configuration.md).",
        discussion: """
            The pages come from the daemon's declarations (help, plugins.list, config.keys) and the hand-written
            introductions in DIR/intro/. With --check nothing is written: exit 1 names each page that differs.
            scripts/docs starts a scratch daemon and runs this.
            """)
    @OptionGroup var options: GlobalOptions
    @Option(help: "The docs folder.") var output = "docs"
    @Flag(help: "Write nothing; exit 1 when a committed page differs from what would be written.") var check = false

    func run() async throws {
        let connection = try await options.connect()
        func call(_ method: String, _ params: JSONValue? = nil) async -> JSONValue {
            switch try? await connection.callResult(method, params: params) {
            case .success(let result)?: return result
            case .failure(let error)?: Output.error(error, json: false)
            case nil: Output.fail("assistantctl: the daemon closed the connection", code: 69)
            }
        }
        var methods: [JSONValue] = []
        for entry in await call("help")["methods"]?.arrayValue ?? [] {
            guard let name = entry["name"]?.stringValue else { continue }
            methods.append(await call("help", ["method": .string(name)]))
        }
        let plugins = await call("plugins.list").arrayValue ?? []
        let keys = await call("config.keys").arrayValue ?? []
        await connection.close()

        let folder = URL(fileURLWithPath: output)
        let introFolder = folder.appendingPathComponent(ReferencePages.introductionFolder)
        var introductions: [String: String] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: introFolder.path)) ?? [] where name.hasSuffix(".md") {
            introductions[String(name.dropLast(3))] = try String(contentsOf: introFolder.appendingPathComponent(name), encoding: .utf8)
        }
        let pages = ReferencePages(methods: methods, plugins: plugins, configKeys: keys, introductions: introductions).pages()

        var differing: [String] = []
        for (path, text) in pages.sorted(by: { $0.key < $1.key }) {
            let url = folder.appendingPathComponent(path)
            let current = try? String(contentsOf: url, encoding: .utf8)
            guard current != text else { continue }
            differing.append(path)
            if !check {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        // A plugin page no plugin writes any more is stale too.
        let pluginFolder = folder.appendingPathComponent("plugins")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: pluginFolder.path)) ?? [] where pages["plugins/\(name)"] == nil {
            differing.append("plugins/\(name)")
            if !check { try FileManager.default.removeItem(at: pluginFolder.appendingPathComponent(name)) }
        }
        if check {
            guard differing.isEmpty else {
                Output.fail(
                    "assistantctl: these generated pages differ from the declarations: "
                        + differing.map { "\(output)/\($0)" }.joined(separator: ", ") + "\nRun scripts/docs to write them.", code: 1)
            }
            print("\(pages.count) generated pages are current")
        } else {
            print(differing.isEmpty ? "\(pages.count) generated pages already current" : "wrote \(differing.joined(separator: ", "))")
        }
    }
}
