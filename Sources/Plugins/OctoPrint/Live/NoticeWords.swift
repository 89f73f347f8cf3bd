import PluginKit

/// What a printer's notices say, in the language the config's `language` chooses. File and
/// printer names stay as they are.
enum NoticeWords {
    static let printing = Words("{printer}: printing {file}", "{printer}: tiskne {file}")
    static let started = Words("Started printing {file} on {printer}.", "Tisk {file} na {printer} začal.")
    static let theprint = Words("the print", "tisk")
    static let thePrint = Words("The print", "Tisk")
    static let milestone = Words("{printer}: {percent}% of {file}", "{printer}: {percent} % z {file}")
    static let milestoneBody = Words("{file} on {printer} is {percent}% done.", "{file} na {printer}: hotovo {percent} %.")
    static let paused = Words("{printer}: paused", "{printer}: pozastaveno")
    static let pausedBody = Words("{file} is paused on {printer}.", "{file} je na {printer} pozastaven.")
    static let resumed = Words("{printer}: resumed", "{printer}: pokračuje")
    static let resumedBody = Words("{file} is printing again on {printer}.", "{file} se na {printer} opět tiskne.")
    static let done = Words("{printer}: {file} is done", "{printer}: {file} je hotov")
    static let doneBody = Words("Finished {file} on {printer}{duration}.", "Tisk {file} na {printer} skončil{duration}.")
    static let inDuration = Words(" in {duration}", " za {duration}")
    static let failed = Words("{printer}: {file} failed", "{printer}: {file} selhal")
    static let failedBody = Words("The print of {file} on {printer} failed{reason}.", "Tisk {file} na {printer} selhal{reason}.")
    static let cancelled = Words("{printer}: {file} cancelled", "{printer}: {file} zrušen")
    static let cancelledBody = Words("The print of {file} on {printer} was cancelled.", "Tisk {file} na {printer} byl zrušen.")
    static let bedCooled = Words("{printer}: bed cooled", "{printer}: podložka vychladla")
    static let bedCooledBody = Words(
        "The bed of {printer} is down to {degrees} °C; the print can come off.", "Podložka {printer} má {degrees} °C; výtisk lze sundat.")
    static let disconnected = Words("{printer}: disconnected", "{printer}: odpojeno")
    static let disconnectedBody = Words("OctoPrint lost the connection to {printer}.", "OctoPrint ztratil spojení s {printer}.")
    static let error = Words("{printer}: error", "{printer}: chyba")
    static let offline = Words("{printer}: offline", "{printer}: nedostupná")
    static let offlineBody = Words("{printer} has been unreachable since {since}: {reason}", "{printer} je nedostupná od {since}: {reason}")
}
