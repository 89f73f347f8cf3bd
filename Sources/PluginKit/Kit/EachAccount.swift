import Foundation
import Logging

/// The one failure policy of a job that works through several accounts (or feeds, or watched
/// items), as Home Assistant's coordinator has one for every integration: each is worked on in
/// turn; one's failure does not stop the others; each failure is logged with its name; and the
/// job fails, naming every one that failed, so that `jobs.list` shows it.
public struct EachAccount: Sendable {
    /// The job's name in the log and in its error: `stag.refresh`.
    public let job: String
    /// What the names are, in the log's metadata: `account`, `feed`, `exam`.
    public let label: String
    let logger: Logger

    public init(_ job: String, label: String = "account", logger: Logger) {
        self.job = job
        self.label = label
        self.logger = logger
    }

    /// `work` for each of `names`, in order. Throws after the last when any failed: the code of
    /// the failures when they share one, else "upstream unreachable", and each name's reason.
    public func run(_ names: [String], _ work: (String) async throws -> Void) async throws {
        var failures: [(name: String, error: RPCError)] = []
        for name in names {
            try Task.checkCancellation()
            do {
                try await work(name)
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                let failure = RPCError(sending: error)
                logger.warning("\(job) failed", metadata: [label: "\(name)", "error": "\(failure.message)"])
                failures.append((name, failure))
            }
        }
        guard let first = failures.first else { return }
        let code = failures.allSatisfy { $0.error.code == first.error.code } ? first.error.code : RPCErrorCode.upstreamUnreachable
        let each = failures.map { "\($0.name): \($0.error.message)" }.joined(separator: "; ")
        throw RPCError(code: code, message: "\(job) failed for \(each)")
    }
}
