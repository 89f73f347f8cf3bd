import Foundation

/// Any error as a sentence a person reads: in results, `jobs.list`, `status` and log lines.
/// Never a Swift debug form (`RPCError(code: …)`) nor Foundation's `Error Domain=…`.
public enum ErrorText {
    public static func sentence(_ error: any Error) -> String {
        switch error {
        case let error as RPCError: return error.message
        case let error as DecodingError: return decoding(error)
        case is CancellationError: return "it was cancelled"
        case let error as any LocalizedError:
            if let text = error.errorDescription { return text }
        default: break
        }
        // Foundation's own errors (CocoaError, NSError, POSIXError) say it in localizedDescription;
        // a Swift error's is "The operation could not be completed", so its description is used.
        if error is any CustomNSError || type(of: error) is NSError.Type {
            return (error as NSError).localizedDescription
        }
        let text = String(describing: error)
        return text.hasPrefix("Error Domain=") ? (error as NSError).localizedDescription : text
    }

    static func decoding(_ error: DecodingError) -> String {
        let context: DecodingError.Context
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): context = c
        @unknown default: return "the data could not be read"
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? context.debugDescription : "\(path): \(context.debugDescription)"
    }
}

extension RPCError: CustomStringConvertible, CustomDebugStringConvertible {
    /// The message: what a person reads wherever an error is written out.
    public var description: String { message }
    public var debugDescription: String {
        "RPCError(code: \(code), message: \(message.debugDescription), data: \(data.map { $0.encodedString() } ?? "nil"))"
    }
}
