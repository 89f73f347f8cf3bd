import PluginKit

/// The KOS plugin's own errors (block 1400–1499). Each case is one code with one meaning; code
/// that handles an error matches the case.
enum KOSError: PluginErrorCase {
    case notSetUp
    /// The OAuth server refused the application's client id or secret.
    case clientRefused(String)
    /// A browser login could not complete (denied, stale, forged or incomplete redirect).
    case loginFailed(String)
    /// The OAuth server refused a grant: an authorization code or a refresh token.
    case grantRefused(String)
    /// KOSapi or the OAuth server answered, but not with what the command needs.
    case badAnswer(String)
    case refused(String, Int)
    case notWatched(String)

    static let block = ErrorBlock(
        1400...1499,
        codes: [
            1401: "KOS is not set up (kos.setup)",
            1402: "the OAuth server refused the application's client id or secret",
            1403: "the KOS login did not complete, or the OAuth server refused a grant (log in again)",
            1404: "KOSapi's or the OAuth server's answer could not be used",
            1405: "KOSapi refused the request (its status in data.status)",
            1406: "the exam is not watched",
        ])

    var code: Int {
        switch self {
        case .notSetUp: 1401
        case .clientRefused: 1402
        case .loginFailed, .grantRefused: 1403
        case .badAnswer: 1404
        case .refused: 1405
        case .notWatched: 1406
        }
    }

    var message: String {
        switch self {
        case .notSetUp: "KOS is not set up: run assistantctl kos.setup client_id=… (the client secret is asked for)"
        case .clientRefused(let detail): "The OAuth server refused the application's client id or secret: \(detail)"
        case .loginFailed(let detail): "The KOS login did not complete: \(detail)"
        case .grantRefused(let reason): "The KOS login did not complete: the OAuth server refused the request (\(reason))"
        case .badAnswer(let what): "KOSapi's answer could not be used: \(what)"
        case .refused(let path, let status): "KOSapi answered \(status) to \(path)"
        case .notWatched(let id): "Exam \(id) is not watched (kos.exams.watches lists the watched ones)"
        }
    }

    var data: JSONValue? {
        switch self {
        case .grantRefused(let reason): ["error": .string(reason)]
        case .refused(_, let status): ["status": .int(Int64(status))]
        case .notWatched(let id): ["exam_id": .string(id)]
        default: nil
        }
    }

    /// The refresh token or the client is refused for good: only a new login helps.
    var refusesCredentials: Bool {
        switch self {
        case .clientRefused, .grantRefused: true
        default: false
        }
    }
}
