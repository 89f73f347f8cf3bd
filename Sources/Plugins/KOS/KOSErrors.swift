import HostCore

/// The KOS plugin's own error codes (block 1400–1499).
enum KOSError {
    static func notSetUp() -> RPCError {
        RPCError(code: 1401, message: "KOS is not set up: run assistantctl kos.setup client_id=… (the client secret is asked for)")
    }
    static func clientRefused(_ detail: String) -> RPCError {
        RPCError(code: 1402, message: "The OAuth server refused the application's client id or secret: \(detail)")
    }
    static func loginFailed(_ detail: String) -> RPCError {
        RPCError(code: 1403, message: "The KOS login did not complete: \(detail)")
    }
    static func refused(_ path: String, _ status: Int) -> RPCError {
        RPCError(code: 1405, message: "KOSapi answered \(status) to \(path)", data: ["status": .int(Int64(status))])
    }
    static func notWatched(_ id: String) -> RPCError {
        RPCError(code: 1406, message: "Exam \(id) is not watched (kos.exams.watches lists the watched ones)", data: ["exam_id": .string(id)])
    }
    /// KOSapi answered, but not with what the command needs.
    static func badAnswer(_ what: String) -> RPCError {
        RPCError(code: 1404, message: "KOSapi's answer could not be used: \(what)")
    }
    /// The OAuth server answered, but not with a token.
    static func badTokenAnswer(_ what: String) -> RPCError {
        RPCError(code: 1404, message: "The OAuth server's answer could not be read: \(what)")
    }
}
