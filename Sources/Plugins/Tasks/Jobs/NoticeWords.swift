import PluginKit

/// What the tasks plugin's notices say, in each language the config's `language` chooses.
enum NoticeWords {
    static let due = Words("Due", "Termín")
    static let when = Words("When", "Kdy")
    static let place = Words("Where", "Kde")
    static let late = Words("Late: reminder for {time}.", "Pozdě: připomínka na {time}.")
    static let oneMissed = Words("1 reminder missed while the daemon was down", "1 připomínka zmeškána, když démon neběžel")
    static let manyMissed = Words("{count} reminders missed while the daemon was down", "Zmeškané připomínky, když démon neběžel: {count}")
    static let andMore = Words("… and {count} more", "… a dalších {count}")
    static let agenda = Words("Agenda for {day}", "Program na {day}")
    static let today = Words("Today:", "Dnes:")
    static let allDay = Words("all day", "celý den")
    static let nothing = Words("nothing", "nic")
    static let overdue = Words("Overdue:", "Po termínu:")
    static let overdueItem = Words("{title} (due {due})", "{title} (termín {due})")
    static let feedFailed = Words("Feed '{name}' could not be read", "Kalendář '{name}' nelze načíst")
}
