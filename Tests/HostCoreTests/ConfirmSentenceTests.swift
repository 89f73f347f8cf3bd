import AssistantRPC
import Testing

/// The question a person is asked before a destructive call, filled from the call's arguments
/// and a read's details: optional parts, alternatives, dates, lists, and hostile text kept on
/// one bounded line.
struct ConfirmSentenceTests {
    let mail = ConfirmSentence([
        "Mail {attachments} to {to} (subject “{title}”)?", "Mail “{title}” to {to}?",
        "Send {attachments} with the notice “{title}” through the configured sinks[ of topic {topic}]?",
    ])

    @Test func theFirstSentenceWhoseValuesAreAllThereIsAsked() {
        let described = { (path: String) in "\(path.split(separator: "/").last ?? "") (34 KB)" }
        #expect(
            mail.filled(
                arguments: ["title": "Report", "to": "x@example.org", "attachments": ["/home/u/report.pdf"]], pathParams: ["attachments"],
                describePath: described) == "Mail report.pdf (34 KB) to x@example.org (subject “Report”)?")
        #expect(mail.filled(arguments: ["title": "Report", "to": "x@example.org", "attachments": []]) == "Mail “Report” to x@example.org?")
        #expect(
            mail.filled(arguments: ["title": "Hi", "attachments": ["/a/b.txt"], "topic": "host.manual"], pathParams: ["attachments"])
                == "Send /a/b.txt with the notice “Hi” through the configured sinks of topic host.manual?")
        #expect(
            mail.filled(arguments: ["title": "Hi", "attachments": ["/a/b.txt"], "topic": .null], pathParams: ["attachments"])
                == "Send /a/b.txt with the notice “Hi” through the configured sinks?")
        #expect(mail.filled(arguments: ["body": "nothing else"]) == nil)
    }

    @Test func detailsFillWhatTheArgumentsDoNotAndDatesAreSpoken() {
        let register = ConfirmSentence(
            ["Register for {subject}[ {name}], exam on {date:day}[ {start}][ in {room}]?", "Register for exam term {term_id}?"],
            details: "stag.exams.term")
        let term: [String: JSONValue] = ["subject": "KIV/PT", "name": .null, "date": "2035-01-12", "start": "09:00", "room": "UU-301"]
        #expect(register.filled(arguments: ["term_id": 7], details: term) == "Register for KIV/PT, exam on Fri 12 Jan 2035 09:00 in UU-301?")
        #expect(register.filled(arguments: ["term_id": 7]) == "Register for exam term 7?")
        // Not a date: shown as it is rather than guessed.
        #expect(register.filled(arguments: [:], details: ["subject": "KIV/PT", "date": "soon"]) == "Register for KIV/PT, exam on soon?")
        #expect(CivilDate.spoken(days: CivilDate.days(iso: "1970-01-01")!) == "Thu 1 Jan 1970")
        #expect(CivilDate.spoken(days: CivilDate.days(iso: "1969-12-31")!) == "Wed 31 Dec 1969")
        #expect(CivilDate.days(iso: "2035-02-30") == nil)
    }

    @Test func listsAreCountedAndHostileTextStaysOnOneBoundedLine() {
        let gcode = ConfirmSentence(["Send {commands} to the printer[ {printer}]?"])
        #expect(gcode.filled(arguments: ["commands": ["G28", "M104 S200"]]) == "Send G28 and M104 S200 to the printer?")
        let many = JSONValue.array((1...8).map { .string("G\($0)") })
        #expect(gcode.filled(arguments: ["commands": many, "printer": "mk4"]) == "Send G1, G2, G3, G4, G5 and 3 more to the printer mk4?")
        let hostile = "x\r\nBcc: evil@example.org\u{1B}[2J\u{2028}" + String(repeating: "a", count: 500)
        let filled = gcode.filled(arguments: ["commands": [.string(hostile)]]) ?? ""
        #expect(!filled.unicodeScalars.contains { $0.properties.generalCategory == .control || $0 == "\u{2028}" }, "\(filled)")
        #expect(filled.count == 142 && filled.hasSuffix("a… to the printer?"), "\(filled)")
        #expect(gcode.filled(arguments: ["commands": [true, 3]]) == "Send yes and 3 to the printer?")
    }

    @Test func itTravelsAsJSONAndAnUnfinishedPlaceholderFillsNothing() {
        #expect(ConfirmSentence(json: mail.json) == mail)
        #expect(ConfirmSentence(json: ["sentences": []]) == nil)
        #expect(ConfirmSentence(["Delete {id"]).filled(arguments: ["id": 1]) == nil)
    }
}
