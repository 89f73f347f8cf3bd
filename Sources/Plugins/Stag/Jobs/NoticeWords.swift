import PluginKit

/// What the IS/STAG plugin's notices say, in the language the config's `language` chooses.
/// Commands (`assistantctl stag.exams.register …`) and names from STAG stay as they are.
enum NoticeWords {
    static let seatsOf = Words("{taken}/{limit} seats taken", "obsazeno {taken}/{limit} míst")
    static let seatsNoLimit = Words("{taken} registered, no limit", "přihlášeno {taken}, bez omezení")
    static let term = Words("term", "termín")
    static let newTerm = Words("New exam term: {title}", "Nový termín zkoušky: {title}")
    static let newTermBody = Words("{when}{room}, {kind}, {seats}. {command}", "{when}{room}, {kind}, {seats}. {command}")
    static let grade = Words("Grade {grade} ({passed}){details}.", "Známka {grade} ({passed}){details}.")
    static let passed = Words("passed", "splněno")
    static let notPassed = Words("not passed", "nesplněno")
    static let roomChange = Words("Room change: {title} on {date}", "Změna místnosti: {title} dne {date}")
    static let noRoom = Words("no room", "bez místnosti")
    static let cancelled = Words("Cancelled: {title} on {date}", "Zrušeno: {title} dne {date}")
    static let cancelledBody = Words("{when}{room} no longer takes place.", "{when}{room} se nekoná.")
    static let lastChance = Words("Last chance to unregister: {title}", "Poslední možnost odhlásit se: {title}")
    static let lastChanceBody = Words("Unregistering from the {when} term closes at {closes}.", "Odhlášení z termínu {when} končí {closes}.")
    static let tomorrow = Words("Exam tomorrow: {title}", "Zítra zkouška: {title}")
    static let seatFree = Words("A seat is free: {title}", "Uvolnilo se místo: {title}")
    static let register = Words("Register: {command}", "Přihlásit: {command}")
    static let registeredForYou = Words("Registered for you.", "Přihlášeno za vás.")
    static let registeringFailed = Words("Registering failed: {error}", "Přihlášení selhalo: {error}")
    static let signupClosing = Words("Sign-up closes soon: {title}", "Přihlašování brzy končí: {title}")
    static let signupClosingBody = Words(
        "Registering for the {when} term{room} closes at {closes} ({seats}).", "Přihlašování na termín {when}{room} končí {closes} ({seats}).")
}
