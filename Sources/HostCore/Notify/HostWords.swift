/// What the host's own notices say (a job failing, a sink given up), in the config's `language`.
enum HostWords {
    static let jobFailed = Words("Job {job} failed", "Úloha {job} selhala")
    static let unknownError = Words("unknown error", "neznámá chyba")
    static let jobRecovered = Words("Job {job} recovered", "Úloha {job} opět běží")
    static let jobRecoveredBody = Words("The job runs normally again.", "Úloha opět běží normálně.")
    static let sinkStopped = Words("Notices to {sink} stopped", "Oznámení do {sink} zastavena")
    static let sinkStoppedBody = Words(
        "{sink} refused a notice for good ({message}). Its pending notices are marked failed; "
            + "fix its configuration and reload (SIGHUP) to use it again.",
        "{sink} trvale odmítl oznámení ({message}). Jeho čekající oznámení jsou označena jako neúspěšná; opravte jeho nastavení "
            + "a načtěte je znovu (SIGHUP).")
}
