import Foundation

/// Base64 in its URL and cookie safe alphabet, without padding (RFC 4648 §5): pairing addresses,
/// session cookies and CSRF tokens. Foundation's coder writes only the standard alphabet, and a
/// package for two character swaps is not worth its weight.
public enum Base64URL {
    public static func encode(_ data: Data) -> String {
        data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// nil for text that is not base64url.
    public static func decode(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while standard.utf8.count % 4 != 0 { standard += "=" }
        return Data(base64Encoded: standard)
    }
}
