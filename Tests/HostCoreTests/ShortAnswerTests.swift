import AssistantRPC
import Foundation
import Testing

/// What a change says it did, filled from its result and its arguments, and "did you mean".
struct ShortAnswerTests {
    let prague = TimeZone(identifier: "Europe/Prague")!

    @Test func theFirstSentenceThatFillsIsSaidInThePersonsTerms() {
        let added = ShortAnswer([
            "Added {id:short} “{title}”: {start:when}[–{end:time}][, {rrule}]", "Added {id:short} “{title}”",
        ])
        let event: JSONValue = [
            "id": "55d1f2a9-0000", "title": "Linear algebra", "start": "2035-01-08T09:00:00Z", "end": "2035-01-08T10:30:00Z", "rrule": .null,
        ]
        #expect(added.said(result: event, arguments: [:], zone: prague) == "Added 55d1f2 “Linear algebra”: Mon 8 Jan 2035 10:00–11:30")
        // Without a start the first sentence does not fill; the second does.
        let task: JSONValue = ["id": "3fa9c1ee", "title": "Hand in the thesis", "start": .null]
        #expect(added.said(result: task, arguments: [:], zone: prague) == "Added 3fa9c1 “Hand in the thesis”")
        // Nothing fills: nil, and the caller shows the record.
        #expect(added.said(result: [:], arguments: [:], zone: prague) == nil)
    }

    @Test func namesReachIntoTheResultThenTheArguments() {
        let completed = ShortAnswer(["Completed {id:short} “{title}”[ (next: {next.start:day})][ on {printer}]"])
        let result: JSONValue = ["id": "3fa9c1ee", "title": "Thesis", "next": ["start": "2035-01-15"]]
        #expect(
            completed.said(result: result, arguments: ["printer": "mk4"], zone: prague)
                == "Completed 3fa9c1 “Thesis” (next: Mon 15 Jan 2035) on mk4")
        // A member of the result wins over an argument of the same name.
        #expect(ShortAnswer(["{id}"]).said(result: ["id": 31], arguments: ["id": 7], zone: prague) == "31")
    }

    @Test func formatsSayTimesCountsAndSizesAsPeopleDo() {
        func say(_ template: String, _ value: JSONValue) -> String? {
            ShortAnswer([template]).said(result: ["v": value], arguments: [:], zone: prague)
        }
        #expect(say("{v:hm}", 65) == "1:05")
        #expect(say("{v:count}", ["a", "b", "c"]) == "3")
        #expect(say("{v:bytes}", 34_816) == "34 KB")
        #expect(say("{v:bytes}", 3_145_728) == "3.0 MB")
        #expect(say("{v:time}", "2035-01-08T09:00:00Z") == "10:00")
        #expect(say("{v:when}", "2035-01-08T09:00") == "Mon 8 Jan 2035 09:00", "a wall time is already the zone's")
        #expect(say("{v:day}", "2035-01-08") == "Mon 8 Jan 2035")
        #expect(say("{v}", ["a", "b", "c"]) == "a, b and c")
        // False and null are missing: an optional part that holds one is left out.
        #expect(say("Done[ (selected: {v})]", false) == "Done")
        #expect(say("Done[ (selected: {v})]", true) == "Done (selected: yes)")
        // A value from outside stays on one line and bounded.
        #expect(say("{v}", .string("a\nb")) == "a b")
        #expect(say("{v:short}", .string("ab\u{1B}[2J")) == "ab [2J", "an upstream's id cannot move the terminal's cursor")
    }

    @Test func aSpanEndsWithItsTimeOnTheSameDayAndItsDayOnAnother() {
        let span = ShortAnswer(["{start:when}[–{end:until}]"])
        func said(_ start: String, _ end: JSONValue) -> String? {
            span.said(result: ["start": .string(start), "end": end], arguments: [:], zone: prague)
        }
        #expect(said("2035-01-08T09:00:00Z", "2035-01-08T10:30:00Z") == "Mon 8 Jan 2035 10:00–11:30")
        #expect(said("2035-01-08T22:00:00Z", "2035-01-09T01:00:00Z") == "Mon 8 Jan 2035 23:00–Tue 9 Jan 2035 02:00", "past midnight")
        // An all-day end is exclusive in iCalendar: saying it would name the day after.
        #expect(said("2035-01-08", "2035-01-09") == "Mon 8 Jan 2035")
        #expect(said("2035-01-08T09:00:00Z", .null) == "Mon 8 Jan 2035 10:00")
        // An `until` with no `when` before it says its day.
        #expect(
            ShortAnswer(["ends {end:until}"]).said(result: ["end": "2035-01-08T10:30"], arguments: [:], zone: prague) == "ends Mon 8 Jan 2035 10:30")
    }

    @Test func aRecurrenceRuleIsSaidOrShownAsWritten() {
        let expected: [(String, String?)] = [
            ("FREQ=WEEKLY;BYDAY=MO", "every Monday"),
            ("FREQ=WEEKLY;BYDAY=MO,WE", "every Mon and Wed"),
            ("FREQ=WEEKLY;BYDAY=FR,MO,WE;WKST=MO", "every Mon, Wed and Fri"),
            ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "every weekday"),
            ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "every 2 weeks on Tuesday"),
            ("FREQ=WEEKLY", "weekly"),
            ("FREQ=DAILY", "daily"),
            ("FREQ=DAILY;INTERVAL=3;COUNT=10", "every 3 days, 10 times"),
            ("FREQ=MONTHLY;BYMONTHDAY=15", "monthly on the 15th"),
            ("FREQ=MONTHLY;BYMONTHDAY=-1", "monthly on the last day"),
            ("FREQ=MONTHLY;BYDAY=-1FR;COUNT=6", "monthly on the last Friday, 6 times"),
            ("FREQ=MONTHLY;INTERVAL=2;BYDAY=2TU", "every 2 months on the second Tuesday"),
            ("FREQ=YEARLY;BYMONTH=6;BYMONTHDAY=1", "yearly on 1 Jun"),
            ("freq=yearly;until=20400101T000000Z", "yearly, until Sun 1 Jan 2040"),
            ("FREQ=WEEKLY;BYDAY=MO;UNTIL=20350601", "every Monday, until Fri 1 Jun 2035"),
            // Shapes it cannot say are left as written, never said wrongly.
            ("FREQ=MONTHLY;BYDAY=MO,TU;BYSETPOS=-1", nil),
            ("FREQ=HOURLY", nil),
            ("FREQ=WEEKLY;BYDAY=XX", nil),
            ("FREQ=WEEKLY;INTERVAL=0", nil),
            ("FREQ=WEEKLY;COUNT=3;UNTIL=20350601", nil),
            ("FREQ=WEEKLY;FREQ=DAILY", nil),
            ("BYDAY=MO", nil),
        ]
        for (rule, said) in expected { #expect(RuleSpeech.spoken(rule) == said, "\(rule)") }
        #expect(ShortAnswer(["{v:rule}"]).said(result: ["v": "FREQ=MINUTELY"], arguments: [:], zone: prague) == "repeats FREQ=MINUTELY")
    }

    @Test func theNearestKnownWordIsNamedOnlyWhenItIsNear() {
        let methods = ["tasks.list", "tasks.add", "tasks.agenda", "status", "logbook.flights.add"]
        #expect(Nearest.word(to: "tasks.lst", among: methods) == "tasks.list")
        #expect(Nearest.word(to: "stauts", among: methods) == "status", "two letters swapped are one edit")
        #expect(Nearest.word(to: "weather.today", among: methods) == nil)
        #expect(Nearest.word(to: "tasks.list", among: methods) == nil, "a known word is no typo")
        #expect(Nearest.word(to: String(repeating: "x", count: 65), among: methods) == nil)
        // Among a command's few choices, the closest is named unless nothing of it is kept.
        let choices = ["today", "overdue", "upcoming", "all"]
        #expect(Nearest.word(to: "tomorow", among: choices, within: 6) == "today")
        #expect(Nearest.word(to: "xyz", among: choices, within: 2) == nil)
    }

    /// A change's undo: its arguments from the answer or the call's own, none when the `unless`
    /// member is there or a value is missing.
    @Test func anUndoIsFilledFromTheAnswerUnlessItCannotBe() {
        let restore = UndoDeclaration("tasks.restore", arguments: ["id": "deleted"], unless: "occurrence")
        #expect(restore.call(result: ["deleted": "3fa9c1"], arguments: ["id": "3fa"])?.arguments == ["id": "3fa9c1"])
        #expect(restore.call(result: ["deleted": "3fa9c1", "occurrence": "2035-01-08"], arguments: [:]) == nil, "only an occurrence went")
        #expect(restore.call(result: ["deleted": "3fa9c1", "occurrence": .null], arguments: [:])?.method == "tasks.restore")
        #expect(restore.call(result: [:], arguments: [:]) == nil, "nothing names what to restore")
        let reopen = UndoDeclaration("tasks.reopen", arguments: ["id": "id"], unless: "next")
        #expect(reopen.call(result: ["title": "x"], arguments: ["id": "ab12"])?.arguments == ["id": "ab12"], "from the call's own argument")
        #expect(reopen.call(result: ["id": "ab12", "next": ["due": "2035-01-15"]], arguments: [:]) == nil, "a repeating one moved on")
    }
}
