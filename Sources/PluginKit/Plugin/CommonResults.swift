/// What a `…remove` command took away, by name: `{"removed": "<name>"}` (a category, a feed, a
/// CalDAV account, a study account, a printer).
public struct Removed: Encodable, CallResult, Sendable {
    public let removed: String

    public init(_ name: String) { removed = name }
}
