/// What the kit's own notices say (upstream state, expired logins), in the config's `language`.
enum KitWords {
    static let unreachable = Words("{plugin}: upstream unreachable{whose}", "{plugin}: služba nedostupná{whose}")
    static let unreachableBody = Words(
        "{reason}. Last known data is served, marked stale.", "{reason}. Zobrazují se poslední známá data, označená jako stará.")
    static let noAnswer = Words("no answer", "bez odpovědi")
    static let recovered = Words("{plugin}: upstream reachable again{whose}", "{plugin}: služba je opět dostupná{whose}")
    static let recoveredBody = Words("Data is live again.", "Data jsou opět živá.")
    static let logInAgain = Words("{plugin}: log in again to '{account}'", "{plugin}: znovu se přihlaste k účtu '{account}'")
    static let logInAgainBody = Words("{reason}. Run: {command}", "{reason}. Spusťte: {command}")
}
