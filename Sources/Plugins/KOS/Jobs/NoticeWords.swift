import PluginKit

/// What the KOS plugin's notices say, in the language the config's `language` chooses. Names
/// from KOS and its address stay as they are.
enum NoticeWords {
    static let seatsOf = Words("{taken}/{capacity} seats taken", "obsazeno {taken}/{capacity} míst")
    static let registered = Words("{taken} registered", "přihlášeno {taken}")
    static let exam = Words("exam", "zkouška")
    static let assessment = Words("assessment", "zápočet")
    static let closesAt = Words("at {time}", "v {time}")
    static let closesEndOf = Words("at the end of {day}", "na konci dne {day}")
    static let registerInKOS = Words("Register in KOS: {url}", "Přihlásit se v KOSu: {url}")
    static let lastChance = Words("Last chance to cancel: {course} on {when}", "Poslední možnost odhlásit se: {course} {when}")
    static let lastChanceBody = Words(
        "Cancelling the {when} exam closes {closes}. KOS: {url}", "Odhlášení ze zkoušky {when} končí {closes}. KOS: {url}")
    static let tomorrow = Words("Exam tomorrow: {course}", "Zítra zkouška: {course}")
    static let seatFree = Words("A seat is free: {course} on {when}", "Uvolnilo se místo: {course} {when}")
    static let signupClosing = Words("Sign-up closes soon: {course} on {when}", "Přihlašování brzy končí: {course} {when}")
    static let signupClosingBody = Words(
        "Signing up for the {when} {kind}{room} closes {closes} ({seats}).", "Přihlašování na {kind} {when}{room} končí {closes} ({seats}).")
    static let newDate = Words("New {kind} date: {course}", "Nový termín ({kind}): {course}")
    static let newEvent = Words("New course event: {course} {name}", "Nová akce předmětu: {course} {name}")
    static let completed = Words("completed", "absolvováno")
    static let assessmentGranted = Words("assessment granted", "zápočet udělen")
    static let credits = Words(", {credits} credits", ", kreditů: {credits}")

    static func kind(_ kind: KOSExamKind) -> Words { kind == .exam ? exam : assessment }

    static func seats(occupied: Int64?, capacity: Int64?, _ language: LanguageCode) -> String {
        guard let capacity else { return registered.text(language, ["taken": "\(occupied ?? 0)"]) }
        return seatsOf.text(language, ["taken": "\(occupied ?? 0)", "capacity": "\(capacity)"])
    }

    /// When a KOS deadline closes: at its minute, or at the end of its day when it has no time.
    static func closes(_ text: String, _ language: LanguageCode) -> String {
        text.contains("T")
            ? closesAt.text(language, ["time": text.prefix(16).replacingOccurrences(of: "T", with: " ")])
            : closesEndOf.text(language, ["day": text])
    }
}
