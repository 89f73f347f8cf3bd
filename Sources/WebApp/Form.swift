import Foundation
import HostCore
import Hummingbird

/// A posted form (`application/x-www-form-urlencoded`), bounded, its CSRF token checked.
enum Form {
    /// Fields beyond these are refused: a page of this app sends a handful.
    static let maxFields = 64

    static func read(_ request: Request, _ context: WebContext, checkingCSRF: Bool) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: context.maxUploadSize)
        let text = String(buffer: body)
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&").prefix(maxFields + 1) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String? { part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
            guard let name = parts.first.flatMap(decoded), let value = decoded(parts.count > 1 ? parts[1] : "") else {
                throw HTTPError(.badRequest, message: "The form is not well formed")
            }
            fields[name] = value
        }
        guard fields.count <= maxFields else { throw HTTPError(.contentTooLarge, message: "The form has too many fields") }
        if checkingCSRF {
            guard let session = context.session, DeviceSessions.csrfMatches(fields["csrf"], session: session) else {
                throw HTTPError(.forbidden, message: "The form is stale or did not come from this app; reload the page and try again")
            }
        }
        return fields
    }

    /// The fields that are the method's parameters, each as its declared type asks (the
    /// dispatcher validates them as it does for the socket).
    static func arguments(_ form: [String: String], for descriptor: CommandDescriptor) -> [String: JSONValue] {
        var arguments: [String: JSONValue] = [:]
        for spec in descriptor.params {
            guard let text = form[spec.name], !text.isEmpty else { continue }
            switch spec.type {
            case .integer: arguments[spec.name] = Int64(text).map(JSONValue.int) ?? .string(text)
            case .number: arguments[spec.name] = Double(text).map(JSONValue.double) ?? .string(text)
            case .boolean:
                arguments[spec.name] =
                    ["true", "yes", "on", "1"].contains(text) ? true : ["false", "no", "off", "0"].contains(text) ? false : .string(text)
            case .array, .object: arguments[spec.name] = (try? JSONValue.decode(text)) ?? .string(text)
            default: arguments[spec.name] = .string(text)
            }
        }
        return arguments
    }

    /// Where to go back to: a path of this app only, never another site (a browser drops tabs and
    /// reads `\\` as `/`, so only plain path characters pass).
    static func localPath(_ given: String?) -> String {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/_.-?=&%")
        guard let given, given.hasPrefix("/"), !given.hasPrefix("//"), given.utf8.count <= 256, given.allSatisfy(allowed.contains) else { return "/" }
        return given
    }
}

/// What the last change did, said on the next page: a cookie for one minute, read once.
enum Flash {
    static let cookieName = "assistant_flash"

    /// What the last change said, and the call that takes it back (its command's declared undo).
    struct Message: Equatable {
        var text: String
        var undo: (method: String, arguments: [String: JSONValue])?

        static func == (a: Message, b: Message) -> Bool {
            a.text == b.text && a.undo?.method == b.undo?.method && a.undo?.arguments == b.undo?.arguments
        }
    }

    static func cookie(_ message: Message, secure: Bool) -> Cookie {
        var object: [String: JSONValue] = ["text": .string(String(message.text.prefix(300)))]
        if let undo = message.undo { object["undo"] = ["method": .string(undo.method), "arguments": .object(undo.arguments)] }
        let value = Base64URL.encode(Data(JSONValue.object(object).encodedString().utf8))
        return Cookie(name: cookieName, value: value, maxAge: 60, path: "/", secure: secure, httpOnly: true, sameSite: .strict)
    }

    /// Said once: the page that shows it drops the cookie.
    static func clear(_ response: inout Response, secure: Bool) {
        response.setCookie(Cookie(name: cookieName, value: "", maxAge: 0, path: "/", secure: secure, httpOnly: true, sameSite: .strict))
    }

    /// The message the cookie carries. The cookie is the browser's to change: its undo is only
    /// a button, whose call goes through the gate like any other.
    static func take(_ request: Request) -> Message? {
        guard let value = request.cookies[cookieName]?.value, value.utf8.count <= 1024, let bytes = Base64URL.decode(value),
            let json = try? JSONValue.decode(String(decoding: bytes, as: UTF8.self)), let text = json["text"]?.stringValue
        else { return nil }
        var message = Message(text: text)
        if let method = json["undo"]?["method"]?.stringValue, let arguments = json["undo"]?["arguments"]?.objectValue, arguments.count <= 8 {
            message.undo = (method, arguments)
        }
        return message
    }
}

/// Pairing attempts are limited: at most 5 unanswered ones a minute, then every attempt waits
/// for the minute to pass, so a pairing secret cannot be guessed by trying. An attempt is counted
/// as it is admitted, in one step, so parallel requests cannot all slip in before any is counted;
/// one that pairs is taken back.
actor PairingThrottle {
    static let limit = 5
    static let window: TimeInterval = 60
    private var attempts: [Date] = []

    func attempt(now: Date) -> Bool {
        attempts.removeAll { now.timeIntervalSince($0) >= Self.window }
        guard attempts.count < Self.limit else { return false }
        attempts.append(now)
        return true
    }

    func succeeded() { if !attempts.isEmpty { attempts.removeLast() } }
}
