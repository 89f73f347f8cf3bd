/// What a writer scrubs as it writes: HostCore's secret redactor. Scrubbing while writing walks
/// a reply once; redacting it first walked the whole value a second time, a ninth of a month's
/// agenda (tasks-bench).
public protocol JSONScrubber: Sendable {
    /// Whether a member with this key holds a credential: a non-empty string there is replaced.
    func isCredentialKey(_ key: String) -> Bool
    /// What a credential member's string is written as.
    var placeholder: String { get }
    /// `text` with the secrets in it replaced, or nil when it has none (the common case).
    func scrubbed(_ text: String) -> String?
    /// False when `scrubbed` can only answer nil (no secret is known): writers then skip it.
    var scrubsText: Bool { get }
}

extension JSONScrubber {
    public var scrubsText: Bool { true }
}

/// The one scrubbing step every writer takes (the `JSONValue` writer, the stream encoder, the
/// direct writer, and the redactor's value walk for what a library writes): a key is scrubbed
/// like any text; a credential member's non-empty string is the placeholder; any other string
/// is scrubbed.
extension JSONScrubber {
    /// Writes `key` scrubbed, quoted and followed by its colon; whether it names a credential.
    public func writeKey(_ key: String, into out: inout [UInt8]) -> Bool {
        JSONWriter.writeString(scrubbed(key) ?? key, into: &out)
        out.append(UInt8(ascii: ":"))
        return isCredentialKey(key)
    }

    /// Writes a member's string as it leaves.
    public func writeString(_ text: String, credential: Bool, into out: inout [UInt8]) {
        JSONWriter.writeString(written(text, credential: credential) ?? text, into: &out)
    }

    /// A member's string as it leaves, or nil when it leaves as it is.
    public func written(_ text: String, credential: Bool) -> String? {
        if credential, !text.isEmpty { return text == placeholder ? nil : placeholder }
        return scrubsText ? scrubbed(text) : nil
    }
}
