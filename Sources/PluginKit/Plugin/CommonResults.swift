/// What a `…remove` command took away, by name: `{"removed": "<name>"}` (a category, a feed, a
/// CalDAV account, a study account, a printer).
public struct Removed: CallResult, ResultObject {
    public let removed: String

    public init(_ name: String) { removed = name }

    public static let members = ResultMembers<Self>(.field("removed", \.removed))
}

/// One of two shapes, each a result of its own: a success row or an error row.
public enum OneOf<First: ResultDescribing & Encodable & Sendable, Second: ResultDescribing & Encodable & Sendable>:
    ResultDescribing, Encodable, Sendable
{
    case first(First)
    case second(Second)

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .first(let value): try value.encode(to: encoder)
        case .second(let value): try value.encode(to: encoder)
        }
    }

    public static var resultSchema: JSONSchema { .anyOf([First.resultSchema, Second.resultSchema]) }
}

/// A command may answer either shape (`kos.login.wait`: the status, or still waiting).
extension OneOf: CallResult {}

/// One account's part of a command over every account, failed: its name and the error (one
/// account's failure does not stop the others).
public struct AccountFailed: ResultObject, Sendable {
    public let name: String
    public let error: String
    public let code: Int

    public init(name: String, _ error: RPCError) {
        self.name = name
        self.error = error.message
        code = error.code
    }

    public static let members = ResultMembers<Self>(.field("name", \.name), .field("error", \.error), .field("code", \.code))
}
