import Foundation

#if canImport(Testing)
    import Testing
#endif

/// A failure the harness finds (a result off its schema, an error a person cannot read): a test
/// issue under swift-testing; a line on standard error in a benchmark, which is built in release
/// against the static Swift runtime (as scripts/install builds), where no Testing module exists.
enum TestIssue {
    static func record(_ text: String) {
        #if canImport(Testing)
            Issue.record(Comment(rawValue: text))
        #else
            FileHandle.standardError.write(Data("test harness: \(text)\n".utf8))
        #endif
    }
}
