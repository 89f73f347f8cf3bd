import PluginKit

/// What the logbook's notices say, in the language the config's `language` chooses.
enum NoticeWords {
    static let expiresIn = Words("{what} expires in {days}", "{what} vyprší za {days}")
    static let validUntil = Words("{what} is valid until {until} ({days} left).", "{what} platí do {until} (zbývá: {days}).")
    static let limitShare = Words("{percent}% of the {limit} limit", "{percent} % limitu {limit}")
    static let limitBody = Words(
        "{used} of {limit} ({reference}) from {from} to {to}; {left} left.", "{used} z {limit} ({reference}) od {from} do {to}; zbývá {left}.")
    static let ratingTitle = Words("{rating} expires in {days}, not yet revalidated", "{rating} vyprší za {days} a není prodloužena")
    static let ratingBody = Words(
        "{rating} is valid until {until}. For revalidation by experience (FCL.740.A) the logbook still lacks: {missing}.",
        "{rating} platí do {until}. K prodloužení praxí (FCL.740.A) v zápisníku ještě chybí: {missing}.")
    static let recency = [
        "passengers": Words("Passenger recency", "Praxe pro přepravu cestujících"),
        "night_passengers": Words("Night passenger recency", "Praxe pro noční přepravu cestujících"),
        "lapl_recency": Words("LAPL recency", "Praxe LAPL"),
    ]
    static let report = Words("Pilot logbook, {range}", "Zápisník letů, {range}")
    static let range = Words("{from} to {to}", "{from} až {to}")
    static let firstEntry = Words("the first entry", "první záznam")
    static let lastEntry = Words("the last entry", "poslední záznam")
    static let reportBody = Words(
        "Your logbook from {range}: {entries} entries on {pages} (attached).\nFlight time {total}, PIC {pic}, night {night}, landings {landings}.",
        "Váš zápisník, {range}: záznamů {entries}, {pages} (v příloze).\nDoba letu {total}, PIC {pic}, noc {night}, přistání {landings}.")

    /// "1 day", "3 days"; "1 den", "3 dny", "5 dní".
    static func days(_ count: Int, _ language: LanguageCode) -> String {
        switch language {
        case .en: return count == 1 ? "1 day" : "\(count) days"
        case .cs: return count == 1 ? "1 den" : (2...4).contains(count) ? "\(count) dny" : "\(count) dní"
        }
    }

    /// "1 page", "3 pages"; "1 strana", "3 strany", "5 stran".
    static func pages(_ count: Int, _ language: LanguageCode) -> String {
        switch language {
        case .en: return count == 1 ? "1 page" : "\(count) pages"
        case .cs: return count == 1 ? "1 strana" : (2...4).contains(count) ? "\(count) strany" : "\(count) stran"
        }
    }
}
