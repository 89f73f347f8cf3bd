import PluginKit

/// Validity status shared by currency, certificates and medicals: `expiring_soon` under 30 days.
enum ValidityStatus: String, Sendable, CaseIterable, Encodable, ResultDescribing {
    case ok
    case expiringSoon = "expiring_soon"
    case lapsed
    case notRequired = "not_required"

    static let soonDays = 30

    static func of(validUntil: Day?, at: Day) -> ValidityStatus {
        guard let validUntil, validUntil >= at else { return .lapsed }
        return validUntil.number - at.number < soonDays ? .expiringSoon : .ok
    }

    /// "valid until 2026-12-20 (25 days)", as `today` words what is about to lapse.
    static func untilText(_ validUntil: Day?, at: Day) -> String? {
        validUntil.map { "valid until \($0) (\($0.number - at.number) days)" }
    }
}

extension JSONValue {
    static func day(_ d: Day?) -> JSONValue { d.map { .string($0.description) } ?? .null }
}
