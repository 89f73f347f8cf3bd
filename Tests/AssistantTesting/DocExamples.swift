import AssistantClient
import Foundation

/// The examples in the hand-written documentation, run as a reader would run them (issue 29).
///
/// A ```` ```console ```` block holds commands (`$ assistantctl …`), each followed by what it
/// prints. The printed lines are a pattern: `…` inside a line stands for any text, and a line
/// that is only `…` for any number of lines. A command with no printed lines is checked for its
/// exit code only; `# exit N` at the end of a command says it is meant to fail with N. The
/// fence's second word picks the test that runs the block: none for the daemon's own suite
/// (host, Tasks, Logbook), `stag`, `kos` or `octoprint` for the suite with that plugin's peer.
public struct DocExample: Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var command: String
    public var expected: [String]
    public var exitCode: Int32
    public var tag: String?

    public var description: String { "\(file):\(line): $ \(command)" }
}

public enum DocExamples {
    /// The hand-written pages: everything but the generated references (they carry a banner).
    public static func handWrittenPages(root: String = Peers.packageRoot) -> [String] {
        DocLinks.pages(root: root, introductions: true).filter { page in
            guard let text = try? String(contentsOfFile: "\(root)/\(page)", encoding: .utf8) else { return false }
            return !text.hasPrefix(ReferencePages.bannerPrefix)
        }
    }

    /// Every console block's commands in `text`, in order.
    public static func parse(_ text: String, file: String) -> [DocExample] {
        var examples: [DocExample] = []
        var inBlock = false
        var tag: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = String(raw)
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.hasPrefix("```") {
                if inBlock {
                    inBlock = false
                } else {
                    let words = trimmed.dropFirst(3).split(separator: " ").map(String.init)
                    inBlock = words.first == "console"
                    tag = words.count > 1 ? words[1] : nil
                }
                continue
            }
            guard inBlock else { continue }
            if line.hasPrefix("$ ") {
                var command = String(line.dropFirst(2))
                var exitCode: Int32 = 0
                if let range = command.range(of: "  # exit "), let code = Int32(command[range.upperBound...].trimmingCharacters(in: .whitespaces)) {
                    exitCode = code
                    command = String(command[..<range.lowerBound])
                }
                examples.append(DocExample(file: file, line: index + 1, command: command, expected: [], exitCode: exitCode, tag: tag))
            } else if !examples.isEmpty, examples[examples.count - 1].file == file {
                examples[examples.count - 1].expected.append(line)
            }
        }
        // Blank lines after the last printed line are the block's layout, not output.
        return examples.map { example in
            var example = example
            while example.expected.last?.trimmingCharacters(in: .whitespaces).isEmpty == true { example.expected.removeLast() }
            return example
        }
    }

    /// Whether `actual` has the shape `expected` describes (see the type's comment).
    public static func matches(_ expected: [String], _ actual: [String]) -> Bool {
        func trimmed(_ s: String) -> String { String(s.reversed().drop { $0 == " " }.reversed()) }
        func lineMatches(_ pattern: String, _ line: String) -> Bool {
            let parts = trimmed(pattern).components(separatedBy: "…")
            guard parts.count > 1 else { return trimmed(pattern) == trimmed(line) }
            var rest = Substring(trimmed(line))
            guard rest.hasPrefix(parts[0]) else { return false }
            rest = rest.dropFirst(parts[0].count)
            for (i, part) in parts.enumerated().dropFirst() {
                if i == parts.count - 1 { return part.isEmpty || rest.hasSuffix(part) }
                guard let found = rest.range(of: part) else { return false }
                rest = rest[found.upperBound...]
            }
            return true
        }
        func match(_ e: ArraySlice<String>, _ a: ArraySlice<String>) -> Bool {
            guard let first = e.first else { return a.isEmpty }
            if first.trimmingCharacters(in: .whitespaces) == "…" {
                return (a.startIndex...a.endIndex).contains { match(e.dropFirst(), a[$0...]) }
            }
            guard let line = a.first, lineMatches(first, line) else { return false }
            return match(e.dropFirst(), a.dropFirst())
        }
        return match(expected[...], actual[...])
    }

    /// Runs the examples in order on a terminal 100 columns wide, without colour, `assistantctl`
    /// first on the PATH, in `workingDirectory`; `replacing` swaps documentation addresses for
    /// the test's peers. Returns what went wrong, one line per example.
    public static func run(
        _ examples: [DocExample], environment: [String: String], workingDirectory: String, replacing: [String: String] = [:]
    ) async throws -> [String] {
        var environment = environment
        environment["PATH"] = "\(Binaries.directory):/usr/bin:/bin"
        environment["NO_COLOR"] = "1"
        environment["TERM"] = "xterm"
        environment["COLUMNS"] = nil
        var failures: [String] = []
        for example in examples {
            var command = example.command
            for (from, to) in replacing { command = command.replacingOccurrences(of: from, with: to) }
            guard command.hasPrefix("assistantctl ") || command.hasPrefix("echo ") || command.hasPrefix("printf ") else {
                failures.append("\(example): a console block holds assistantctl commands only (use ```sh for others)")
                continue
            }
            let run = try await runCommand(
                "/usr/bin/script", ["-qec", "stty cols 100 rows 60; \(command)", "/dev/null"], environment: environment, stdin: "",
                currentDirectory: workingDirectory)
            var output = run.stdout.replacingOccurrences(of: "\r\n", with: "\n").trimmingCharacters(in: .newlines)
            for (from, to) in replacing { output = output.replacingOccurrences(of: to, with: from) }
            let lines = output.isEmpty ? [] : output.components(separatedBy: "\n")
            if run.status != example.exitCode {
                failures.append("\(example): exit \(run.status), documented \(example.exitCode); printed:\n\(output)")
            } else if !example.expected.isEmpty, !matches(example.expected, lines) {
                failures.append("\(example): printed\n\(output)\ndocumented\n\(example.expected.joined(separator: "\n"))")
            }
        }
        return failures
    }

    /// Every hand-written page's examples with `tag` (nil: the daemon's own).
    public static func examples(tagged tag: String?, root: String = Peers.packageRoot) throws -> [DocExample] {
        try handWrittenPages(root: root).flatMap { page in
            parse(try String(contentsOfFile: "\(root)/\(page)", encoding: .utf8), file: page).filter { $0.tag == tag }
        }
    }
}
