/// A request id: a string, an integer, or null. An absent id (a notification) is modelled as `nil`
/// at the use site, never as `.null`, because the specification treats the two differently.
public enum RPCID: Sendable, Hashable, CustomStringConvertible {
    case string(String)
    case number(Int64)
    case null

    public var json: JSONValue {
        switch self {
        case .string(let s): .string(s)
        case .number(let n): .int(n)
        case .null: .null
        }
    }

    public init?(json: JSONValue) {
        switch json {
        case .string(let s): self = .string(s)
        case .int(let n): self = .number(n)
        case .null: self = .null
        default: return nil
        }
    }

    public var description: String {
        switch self {
        case .string(let s): s
        case .number(let n): String(n)
        case .null: "null"
        }
    }
}
