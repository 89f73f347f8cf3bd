/// A plugin's own error: one enum per plugin whose cases carry their code, message and data.
/// A handler throws a case; the host sends it as that JSON-RPC error. Code that handles an error
/// matches its case (`catch KOSError.clientRefused`), never its number.
public protocol PluginErrorCase: Error, Sendable, CustomStringConvertible {
    var code: Int { get }
    var message: String { get }
    var data: JSONValue? { get }
}

extension PluginErrorCase {
    public var data: JSONValue? { nil }
    /// Logs and a job's last error read the message, not a Swift case name.
    public var description: String { message }
    public var rpcError: RPCError { RPCError(code: code, message: message, data: data) }
}

/// The block of error codes a plugin owns, and what each code it uses means. The host checks at
/// start that every code lies in the block and that no two plugins' blocks overlap.
public struct ErrorBlock: Sendable {
    public var range: ClosedRange<Int>
    /// Each code the plugin sends, with what it means (for `help`, the docs and the check).
    public var codes: [Int: String]

    public init(_ range: ClosedRange<Int>, codes: [Int: String]) {
        self.range = range
        self.codes = codes
    }

    /// Plugins' blocks lie here: below JSON-RPC's reserved -32768…-32000 and apart from the
    /// host's own -32001…-32099.
    public static let pluginSpace = 1000...9999
}

extension RPCError {
    /// Any error as the JSON-RPC error it is sent as: a plugin's case, an `RPCError`, or else an
    /// internal error with its description.
    public init(sending error: any Error) {
        switch error {
        case let error as RPCError: self = error
        case let error as any PluginErrorCase: self = error.rpcError
        default: self = .internalError(ErrorText.sentence(error))
        }
    }

    /// Whether a read may be answered from the cache instead: the upstream could not be reached,
    /// timed out or failed (5xx). Never a refused login, never a 4xx.
    public var allowsStaleRead: Bool {
        if code == RPCErrorCode.timeout { return true }
        guard code == RPCErrorCode.upstreamUnreachable else { return false }
        guard let status = data?["status"]?.intValue else { return true }
        return status >= 500
    }
}
