/// Start-up failures, each with the sysexits code `assistantd` exits with.
public struct StartupError: Error, CustomStringConvertible {
    public enum Kind: Sendable {
        /// 78 EX_CONFIG
        case configuration
        /// 73 EX_CANTCREAT
        case cannotCreate
        /// 75 EX_TEMPFAIL: another daemon already serves the socket.
        case alreadyRunning
        /// 64 EX_USAGE
        case usage
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    public var exitCode: Int32 {
        switch kind {
        case .configuration: 78
        case .cannotCreate: 73
        case .alreadyRunning: 75
        case .usage: 64
        }
    }
}
