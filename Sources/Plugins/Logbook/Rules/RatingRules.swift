import PluginKit

/// Revalidation of a class rating by experience, Part-FCL FCL.740.A(b)(1)(ii): within the 12 months
/// before the rating expires, 12 h of flight time in the class, 6 h of it as PIC, 12 take-offs
/// and 12 landings, and refresher training of at least 1 h of flight time with an FI or CRI. It
/// applies to single-engine piston (SEP) and touring motor glider (TMG) ratings; a holder of both
/// may meet it in either or both. Every other class needs a proficiency check.
enum RatingRules {
    static let reference = "FCL.740.A(b)(1)"
    static let required = Held(flightMinutes: 12 * 60, picMinutes: 6 * 60, takeoffs: 12, landings: 12)
    static let trainingMinutes = 60
    static let byExperience: Set<String> = ["SEP", "TMG"]

    /// `SEP(land)`, `sep (Land)` and `SEP` name one class; the part before the parenthesis decides
    /// whether experience revalidates it.
    static func base(_ classRating: String) -> String {
        String(classRating.uppercased().filter { !$0.isWhitespace }.prefix { $0 != "(" })
    }

    static func normalized(_ classRating: String) -> String { classRating.uppercased().filter { !$0.isWhitespace } }

    /// Whether a flight in an aircraft of `aircraftClass` counts towards `rating`: the same class
    /// (an aircraft's class without a parenthesis matches any variant of it), or, for a pilot who
    /// holds both, TMG towards SEP on land and SEP on land towards TMG (not a seaplane's hours).
    static func counts(_ aircraftClass: String, towards rating: String, heldBases: Set<String>) -> Bool {
        let (a, r) = (normalized(aircraftClass), normalized(rating))
        if a == r || ((!a.contains("(") || !r.contains("(")) && base(a) == base(r)) { return true }
        func landOrTMG(_ c: String) -> Bool { c == "TMG" || c == "SEP" || c == "SEP(LAND)" }
        return byExperience.isSubset(of: heldBases) && base(a) != base(r) && landOrTMG(a) && landOrTMG(r)
    }

    struct Held: Sendable, Equatable {
        var flightMinutes = 0
        var picMinutes = 0
        var takeoffs = 0
        var landings = 0
    }

    struct Flight: Sendable {
        var id: Int64
        var day: Day
        var aircraftClass: String
        var totalMinutes: Int
        var picMinutes: Int
        var takeoffs: Int
        var landings: Int
        var dualMinutes: Int
    }

    /// What one rating's window holds, and what it still lacks. "Within the 12 months preceding
    /// the expiry date" is read strictly: from the day 12 months before expiry to the day before
    /// it, so a flight on the expiry day never makes a rating look revalidated.
    static func assess(rating: String, expiry: Day, at: Day, heldBases: Set<String>, flights: [Flight]) -> Assessment {
        let window = (from: expiry.adding(months: -12), to: expiry.adding(days: -1))
        var held = Held()
        var training: Flight?
        for f in flights
        where f.day >= window.from && f.day <= min(window.to, at) && counts(f.aircraftClass, towards: rating, heldBases: heldBases) {
            held.flightMinutes += f.totalMinutes
            held.picMinutes += f.picMinutes
            held.takeoffs += f.takeoffs
            held.landings += f.landings
            if f.dualMinutes >= trainingMinutes, f.day > training?.day ?? Day(number: .min) { training = f }
        }
        var missing: [String] = []
        let r = required
        if held.flightMinutes < r.flightMinutes { missing.append("\(Minutes.hhmm(r.flightMinutes - held.flightMinutes)) of flight time") }
        if held.picMinutes < r.picMinutes { missing.append("\(Minutes.hhmm(r.picMinutes - held.picMinutes)) as PIC") }
        if held.takeoffs < r.takeoffs { missing.append("\(r.takeoffs - held.takeoffs) take-offs") }
        if held.landings < r.landings { missing.append("\(r.landings - held.landings) landings") }
        if training == nil { missing.append("a training flight of at least 1:00 with an instructor (FI or CRI)") }
        return Assessment(from: window.from, to: window.to, held: held, training: training, missing: missing)
    }

    struct Assessment: Sendable {
        var from: Day
        var to: Day
        var held: Held
        var training: Flight?
        var missing: [String]
    }
}
