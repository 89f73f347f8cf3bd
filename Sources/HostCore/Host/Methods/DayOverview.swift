import Foundation

/// `today`: each ready plugin's part of a day (`DayContributing`), asked at once, merged in time
/// order. A plugin that fails or takes longer than its limit is named among the problems; the
/// others are shown.
enum DayOverview {
    /// How long one plugin may take for its part (an upstream that hangs answers from its cache
    /// or not at all).
    static let perPlugin: Duration = .seconds(10)

    /// `today`'s answer.
    struct Day: CallResult, ResultObject {
        struct Problem: Sendable, ResultObject {
            let plugin: String
            let message: String

            static let members = ResultMembers<Self>(.field("plugin", \.plugin), .field("message", \.message))
        }

        let date: String
        let timeZone: String
        let weeks: [StudyWeek]
        let items: [DayItem]
        let problems: [Problem]

        static let members = ResultMembers<Self>(
            .field("date", \.date, .date), .field("time_zone", \.timeZone),
            .field("weeks", \.weeks, "the teaching week the day falls in, by each study system set up (none outside teaching)"),
            .field("items", \.items),
            .field("problems", \.problems, "plugins whose part could not be read (the others are shown)"))
    }

    /// The day asked for (the validator has read it as a date), else today in the daemon's zone.
    static func today(_ host: AssistantHost, day: DateOnly?) async -> Day {
        let zone = host.configuration.timeZone
        let now = host.clock.now
        let date = day ?? DateOnly(now, in: zone)
        let query = DayQuery(date: date, zone: zone, now: now)
        var contributors: [(String, any DayContributing)] = []
        for supervisor in host.supervisors {
            if let contributor = await supervisor.dayContributor() { contributors.append((supervisor.id, contributor)) }
        }
        let clock = host.clock
        // One end for every plugin, fixed before any starts: a plugin asked late gets no longer.
        let deadline = now.addingTimeInterval(perPlugin.timeInterval)
        typealias Part = (items: [DayItem], week: StudyWeek?)
        let parts = await withTaskGroup(of: (String, Result<Part, RPCError>).self) { group in
            for (plugin, contributor) in contributors {
                group.addTask {
                    do {
                        let part = try await withDeadline(
                            until: deadline, clock: clock,
                            timedOut: { RPCError(code: RPCErrorCode.timeout, message: "no answer within \(perPlugin.limitText)") }
                        ) { () async throws -> Part in
                            let items = try await contributor.dayItems(query)
                            // The week is a heading's detail: a plugin that cannot say it still shows its day.
                            return (items, try? await contributor.studyWeek(query))
                        }
                        return (plugin, .success(part))
                    } catch {
                        return (plugin, .failure(RPCError(sending: error)))
                    }
                }
            }
            var parts: [(String, Result<Part, RPCError>)] = []
            for await part in group { parts.append(part) }
            return parts
        }
        var items: [DayItem] = []
        var weeks: [StudyWeek] = []
        var problems: [Day.Problem] = []
        for (plugin, result) in parts.sorted(by: { $0.0 < $1.0 }) {
            switch result {
            case .success(let found):
                items += found.items.map {
                    var item = $0
                    item.plugin = plugin
                    return item
                }
                if var week = found.week {
                    week.plugin = plugin
                    weeks.append(week)
                }
            case .failure(let error):
                problems.append(Day.Problem(plugin: plugin, message: host.redactor.redact(error.message)))
            }
        }
        return Day(date: date.description, timeZone: zone.identifier, weeks: weeks, items: order(items), problems: problems)
    }

    /// Timed items by their start (overdue tasks come first, their due being past), then the
    /// untimed ones (warnings); ties by plugin and title, so the order never depends on which
    /// plugin answered first.
    static func order(_ items: [DayItem]) -> [DayItem] {
        items.sorted { a, b in
            switch (a.start, b.start) {
            case (let x?, let y?) where x != y: return x < y
            case (.some, nil): return true
            case (nil, .some): return false
            default: return (a.plugin, a.title) < (b.plugin, b.title)
            }
        }
    }
}
