import AssistantTesting
import Foundation
import Testing

/// The daemon owns every task it starts: a request is a child of its connection, a job loop of
/// the scheduler's service, a push connection of its plugin's service. An unstructured task
/// would outlive its owner and escape shutdown, so none may appear in the daemon's sources.
@Suite(.stopsTestHosts) struct StructuredConcurrencyTests {
    static let unstructured = try! NSRegularExpression(pattern: #"\bTask(\.detached)?\s*(\{|\()"#)

    @Test func noSourceStartsAnUnstructuredTask() throws {
        let root = "\(Peers.packageRoot)/Sources"
        let files = try #require(FileManager.default.subpaths(atPath: root)).filter { $0.hasSuffix(".swift") }.sorted()
        #expect(files.count > 100, "the scan found the sources")
        var found: [String] = []
        for file in files {
            let text = try String(contentsOfFile: "\(root)/\(file)", encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = String(line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
                let range = NSRange(code.startIndex..., in: code)
                if Self.unstructured.firstMatch(in: code, range: range) != nil { found.append("\(file):\(index + 1): \(line)") }
            }
        }
        #expect(found == [], "use a task group or BackgroundTasks")
    }

    @Test func thePatternCatchesEachForm() {
        for line in ["let t = Task { await x() }", "Task.detached { }", "Task(priority: .high) { }", "    _ = Task {"] {
            let range = NSRange(line.startIndex..., in: line)
            #expect(Self.unstructured.firstMatch(in: line, range: range) != nil, "\(line)")
        }
        for line in ["Task.isCancelled", "try await Task.sleep(for: x)", "withTaskGroup(of: Void.self) {", "group.addTask {"] {
            let range = NSRange(line.startIndex..., in: line)
            #expect(Self.unstructured.firstMatch(in: line, range: range) == nil, "\(line)")
        }
    }
}
