import PluginKit

/// What the CTU OAuth server answers, as rows (as KOSapi's Atom is read through `KOSRow`): the
/// token endpoint (RFC 6749 §5.1, and §5.2 for a refusal) and `/oauth/userinfo`. A member that
/// is missing or of another type reads as nil, so a refusal without `error` still says its status.
enum OAuthAnswer {
    /// A text member, or nil.
    @propertyWrapper struct Text: JSONTreeField {
        var wrappedValue: String?
        init(tree value: JSONValue?) { wrappedValue = value?.stringValue }
    }

    /// A number of seconds, or nil.
    @propertyWrapper struct Seconds: JSONTreeField {
        var wrappedValue: Double?
        init(tree value: JSONValue?) { wrappedValue = value?.doubleValue }
    }

    struct Token: Decodable {
        @Text var accessToken: String?
        @Text var refreshToken: String?
        @Seconds var expiresIn: Double?
        @Text var error: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", refreshToken = "refresh_token", expiresIn = "expires_in", error
        }
    }

    struct UserInfo: Decodable {
        @Text var username: String?
        @Text var userName: String?

        enum CodingKeys: String, CodingKey {
            case username, userName = "user_name"
        }
    }
}
