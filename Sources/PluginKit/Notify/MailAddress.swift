/// One plain mail address (no display name, no list), as the host's mail and every plugin that
/// mails take it. Checked scalar by scalar: Swift reads "\r\n" as one `Character`, equal to
/// neither "\r" nor "\n", so a check of Characters let `x@y\r\nBcc:z@w` through into a header.
public enum MailAddress {
    /// Longest address SMTP carries (RFC 5321's path limit less the angle brackets).
    public static let maxLength = 254

    public static func isValid(_ address: String) -> Bool {
        guard !address.isEmpty, address.utf8.count <= maxLength,
            // A leading dash would read as an option to sendmail.
            !address.hasPrefix("-"),
            !address.unicodeScalars.contains(where: { OneLine.breaks($0) || $0.properties.isWhitespace || forbidden.contains($0) })
        else { return false }
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
    }

    /// An address on the Internet: a plain one whose domain has a dot (what STAG and a report's
    /// recipient hold; a dotless domain there is a typo, not a local host).
    public static func isInternetAddress(_ address: String) -> Bool {
        isValid(address) && address.split(separator: "@").last?.contains(".") == true
    }

    /// Throws -32602 naming `param` unless `address` is one plain address.
    public static func validate(_ address: String, param: String) throws(RPCError) {
        guard isValid(address) else { throw RPCError.invalidParam(param, "must be one mail address such as pilot@example.org") }
    }

    /// Characters that would make the address a list, a display name or a quoted part.
    private static let forbidden: Set<Unicode.Scalar> = [",", "<", ">", ";", "\"", "\\", "(", ")"]
}
