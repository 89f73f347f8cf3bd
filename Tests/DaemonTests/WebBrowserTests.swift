import AssistantClient
import AssistantRPC
import AssistantTesting
import Foundation
import Testing

/// The web app in a real browser: Debian's Chromium driven by Playwright for Python
/// (`Tests/peers/web_browser.py`), at a phone's size and a desktop's, against the shipped daemon
/// with the STAG fake, a real OctoPrint printing on its virtual printer, and aiosmtpd for mail.
/// The script only reports what it saw; every expectation is here.
@Suite(
    .stopsTestHosts, .timeLimit(.minutes(6)),
    .enabled(if: Peers.shouldRun(pythonModule: "playwright") && Peers.shouldRun(program: "/usr/bin/chromium")))
struct WebBrowserTests {
    /// Where each page's screenshot is kept after the run (`.build/test-output/web`).
    static let shots: String = {
        let path = (Peers.packageRoot as NSString).appendingPathComponent(".build/test-output/web")
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }()

    static func today(in zone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let parts = calendar.dateComponents([.year, .month, .day], from: Date())
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    @Test(.enabled(if: Peers.shouldRun(program: OctoPrintPeer.executable)))
    func aPersonUsesEveryPageOnAPhone() async throws {
        let octoprint = try await OctoPrintPeer()
        defer { octoprint.stop() }
        let smtp = try await SMTPPeer(mode: "starttls")
        defer { smtp.stop() }
        let stag = try PeerProcess(Peers.python, [Peers.script("stag_fake.py")])
        defer { stag.stop() }
        let stagBase = "http://127.0.0.1:\(try await stag.announcedPort("the fake STAG"))"
        let fixture = (Peers.packageRoot as NSString).appendingPathComponent("Tests/StagTests/Fixtures/state.json")
        let seeded = try await runCommand(
            Peers.python, [Peers.script("web_browser.py"), "seed-stag", stagBase, fixture, Self.today(in: "Europe/Prague")], environment: nil)
        #expect(seeded.status == 0, "\(seeded.stderr)")

        let port = try Peers.freePort()
        let base = "http://127.0.0.1:\(port)"
        let directory = TemporaryDirectory()
        let daemon = try await DaemonProcess.started(
            directory: directory,
            config: """
                timezone = "Europe/Prague"
                language = "cs"
                [web]
                enabled = true
                listen = "127.0.0.1:\(port)"
                [notify.mail]
                enabled = true
                transport = "smtp"
                from = "assistant@example.org"
                to = ["student@example.org"]
                [notify.smtp]
                host = "127.0.0.1"
                port = \(smtp.port)
                security = "starttls"
                username = "\(smtp.user)"
                ca_file = "\(smtp.certificate)"
                [plugins.stag]
                canteen_url = "\(stagBase)/rest/canteen"

                """)
        let environment = DaemonProcess.environment(directory).merging(["ASSISTANT_SOCKET": daemon.socketPath]) { $1 }
        let connection = try await daemon.connect()
        _ = try await connection.call("vault.set", params: ["name": "host/smtp/password", "secret": .string(smtp.password)])

        // A student logged in to the STAG fake through its browser login, as a person does.
        let login = try await connection.call("stag.login", params: ["base_url": .string(stagBase), "account": "school"])
        let capture = try await Browser.open(try #require(login["login_url"]?.stringValue))
        #expect(capture.status == 200)
        #expect(try await connection.call("stag.login.wait", params: ["account": "school", "timeout_s": 20])["state"] == "logged_in")

        // A CTU student logged in to the KOS fake through the daemon's OAuth login, in a browser.
        let kos = try PeerProcess(Peers.python, [Peers.script("kos_fake.py")])
        defer { kos.stop() }
        let kosPort = try await kos.announcedPort("the fake OAuth server")
        _ = try await connection.call(
            "kos.setup",
            params: [
                "client_id": "assistant-app", "client_secret": "app-secret-123", "auth_url": .string("http://127.0.0.1:\(kosPort)"),
                "api_url": .string("http://127.0.0.1:\(kosPort)/api/3"),
            ])
        let kosLogin = try await connection.call("kos.login")
        #expect(try await Browser.open(try #require(kosLogin["login_url"]?.stringValue)).status == 200)
        #expect(try await connection.call("kos.login.wait", params: ["timeout_s": 20])["logged_in"] == true)

        // A printer printing a long file on OctoPrint's virtual printer.
        _ = try await connection.call(
            "octoprint.printers.add", params: ["name": "mk3", "url": .string(octoprint.url), "api_key": .string(octoprint.apiKey)])
        _ = try await connection.call("octoprint.connection.connect", params: ["port": "VIRTUAL", "baudrate": 115200])
        let long = directory.write(
            "benchy.gcode", (["G28"] + (0..<200_000).map { "G1 X\($0 % 100) Y\($0 % 90) F6000" }).joined(separator: "\n") + "\n")
        _ = try await connection.call("octoprint.files.upload", params: ["file": .string(long), "print": true])
        for _ in 0..<600 {
            if try await connection.call("octoprint.status")["flags"]?["printing"] == true { break }
            try await Task.sleep(for: .milliseconds(100))
        }
        // A task due today, to be ticked off on Today.
        let task = try await connection.call(
            "tasks.add", params: ["title": "Buy filament", "due": .string(Self.today(in: "Europe/Prague") + " 23:59")])
        let taskID = try #require(task["id"]?.stringValue)
        let swiped = try await connection.call(
            "tasks.add", params: ["title": "Return the keys", "due": .string(Self.today(in: "Europe/Prague") + " 23:00")])
        let swipedID = try #require(swiped["id"]?.stringValue)
        // An aircraft to log a flight in.
        _ = try await connection.call(
            "logbook.aircraft.add", params: ["registration": "OK-SKA", "make": "Cessna", "model": "172", "class_rating": "SEP(land)"])
        await connection.close()

        let setup: JSONValue = [
            "base": .string(base), "ctl": .string(Binaries.assistantctl), "shots": .string(Self.shots),
            "profile": .string(directory.directory("chromium-profile")), "task_title": "Buy filament", "term_subject": "DB1",
            "swipe_title": "Return the keys", "swipe_id": .string(swipedID), "flight_date": "2026-11-20",
            "secrets": [.string(octoprint.apiKey), .string(smtp.password), "app-secret-123"], "kos_week": "2025-09-22",
        ]
        let setupFile = directory.write("setup.json", setup.encodedString())
        let browsed = try await runCommand(Peers.python, [Peers.script("web_browser.py"), "browse", setupFile], environment: environment)
        try #require(browsed.status == 0, "\(browsed.stderr)")
        let seen = try JSONValue.decode(browsed.stdout)

        // Nothing is served without a session.
        for (path, status) in seen["unpaired"]?.objectValue ?? [:] { #expect(status == 401, "\(path) answered \(status) unpaired") }
        #expect(seen["unpaired"]?.objectValue?.count == 10)
        #expect(seen["unpaired_post"] == 401)
        // Pairing: the address works once and lands on Today; the session cookie's flags.
        #expect(seen["paired_url"]?.stringValue == base + "/")
        #expect(
            seen["reused_address"]?.stringValue?.contains("This address is not valid: it was used already") == true,
            "\(seen["reused_address"] ?? .null)")
        #expect(seen["cookie"]?["httpOnly"] == true)
        #expect(seen["cookie"]?["sameSite"] == "Strict")
        #expect(seen["cookie"]?["secure"] == false, "plain http on loopback: Secure would lose the cookie")
        let thirtyDays = Date().addingTimeInterval(29 * 86_400).timeIntervalSince1970
        #expect((seen["cookie"]?["expires"]?.doubleValue ?? 0) > thirtyDays, "a rolling 30-day session")
        #expect(seen["headers"]?["content-security-policy"]?.stringValue?.contains("script-src 'self'") == true)
        #expect(seen["headers"]?["content-security-policy"]?.stringValue?.contains("unsafe-inline") == false)
        #expect(seen["headers"]?["x-frame-options"] == "DENY")
        #expect(seen["headers"]?["referrer-policy"] == "no-referrer")

        // Today: the seeded task, the class moved onto today, the running print.
        let today = seen["today"]?.stringValue ?? ""
        #expect(today.contains("Buy filament"), "\(today)")
        #expect(today.contains("Class KMA/MA1 Matematická analýza 1 (Přednáška) US-217"), "\(today)")
        #expect(today.contains("Print mk3: benchy.gcode mk3 Printing"), "\(today)")
        #expect(seen["done_flash"]?.stringValue?.contains("Completed") == true, "\(seen["done_flash"] ?? .null)")
        #expect(seen["undone_flash"]?.stringValue?.hasPrefix("Reopened") == true, "\(seen["undone_flash"] ?? .null)")
        #expect(seen["undone_status"] == "needs-action", "Undo reopened it")
        let completed = try await runCommand(Binaries.assistantctl, ["tasks.get", "id=\(taskID)"], environment: environment)
        #expect(try JSONValue.decode(completed.stdout)["status"] == "completed", "\(completed.stdout)")

        // Every page: a screenshot at phone size, no serious or critical axe violation, no sideways scrolling.
        #expect(seen["shots"]?.arrayValue?.count == 8)
        for (path, violations) in seen["axe"]?.objectValue ?? [:] { #expect(violations == [], "\(path): \(violations)") }
        #expect(seen["axe"]?.objectValue?.count == 8)
        for (path, overflows) in seen["overflow"]?.objectValue ?? [:] { #expect(overflows == false, "\(path) scrolls sideways at 412 px") }
        #expect(seen["overflow"]?.objectValue?.count == 8)
        #expect(seen["desktop_overflow"] == false)

        // Each bad field: its message beside it, what was typed kept, nothing saved.
        #expect(seen["bad_fields"]?.objectValue?.count == 4)
        for (field, bad) in seen["bad_fields"]?.objectValue ?? [:] {
            #expect(bad["error"]?.stringValue?.isEmpty == false, "\(field): \(bad)")
            #expect(bad["invalid"] == "true", "\(field)")
            #expect(bad["kept"] == bad["typed"], "\(field): \(bad)")
            #expect(bad["count_before"] != nil && bad["count_before"] == bad["count_after"], "\(field): \(bad)")
        }

        // The task added with its reminder: said on the page, then its notice live on Notices.
        #expect(seen["added_flash"]?.stringValue?.contains("Call the dean") == true, "\(seen["added_flash"] ?? .null)")
        #expect(seen["live_notice"]?.stringValue?.contains("Call the dean") == true, "\(seen["live_notice_error"] ?? .null)")
        #expect(seen["live_not_reloaded"] == true)

        // Register: asked first, naming the term; declining did nothing; confirming registered.
        let question = seen["exam_question"]?.stringValue ?? ""
        #expect(question.contains("DB1"), "\(question)")
        func state(_ exams: JSONValue?) -> JSONValue? { exams?["terms"]?.arrayValue?.first { $0["term_id"] == 1_118_483 }?["state"] }
        #expect(state(seen["exam_after_decline"]) == "available", "\(seen["exam_after_decline"] ?? .null)")
        #expect(state(seen["exam_after_confirm"]) == "registered", "\(seen["exam_after_confirm"] ?? .null)")
        // The printer's card: its state, file and progress.
        let printers = seen["printers"]?.stringValue ?? ""
        #expect(printers.contains("mk3") && printers.contains("benchy.gcode") && printers.contains("Printing"), "\(printers)")
        #expect(printers.contains("Printer: mk3"), "a section for each printer")
        // Its temperature chart, made through the daemon, drawn again while the page is open; the
        // virtual printer has no webcam, whose place keeps its caption and shows no broken image.
        let pictures = seen["printer_pictures"]?.arrayValue ?? []
        let temperatures = pictures.first { $0["alt"]?.stringValue?.hasPrefix("Temperatures") == true }
        #expect(temperatures?["loaded"] == true && temperatures?["refresh"] == "15", "\(pictures) \(seen["printer_pictures_error"] ?? .null)")
        let webcam = pictures.first { $0["alt"] == "Webcam" }
        #expect(webcam?["loaded"] == false && webcam?["unavailable"] == true, "\(pictures)")
        // The page follows the printer: drawn again in place (no reload), still showing the print.
        #expect(seen["printers_live"] == "30")
        let redrawn = seen["printers_redrawn"]
        #expect(redrawn?["redrawn"]?.intValue ?? 0 >= 1 && redrawn?["notReloaded"] == true, "\(seen["printers_redrawn_error"] ?? .null)")
        #expect(redrawn?["text"]?.stringValue?.contains("benchy.gcode") == true, "\(redrawn ?? .null)")
        // Swiped to the right on Tasks: done.
        #expect(seen["swiped_status"] == "completed", "\(seen["swiped_flash"] ?? .null)")
        #expect(seen["swiped_flash"]?.stringValue?.contains("Completed") == true)
        // Logbook: Brno offered as "brno" was typed; the check showed the derived times and saved
        // nothing, what was typed kept; Save logged it; the chart shown and the PDF saved.
        #expect(seen["airport_offered"]?.stringValue?.contains("Brno") == true, "\(seen["airport_offered_error"] ?? .null)")
        let check = seen["flight_check"]?.stringValue ?? ""
        #expect(check.contains("What would be saved") && check.contains("Total\n0:52") && check.contains("PIC\n0:52"), "\(check)")
        #expect(seen["flight_kept"] == "14:10")
        #expect(seen["flights_after_check"] == 0 && seen["flights_after_save"] == 1, "\(seen["flight_flash"] ?? .null)")
        #expect(seen["flight_flash"]?.stringValue?.contains("LKTB → LKPR") == true, "\(seen["flight_flash"] ?? .null)")
        #expect(seen["pdf"]?["name"] == "logbook-export.pdf" && seen["pdf"]?["head"] == "%PDF-", "\(seen["pdf"] ?? .null)")
        #expect(seen["logbook_pictures"]?.arrayValue?.first?["loaded"] == true, "\(seen["logbook_pictures"] ?? .null)")
        // KOS beside IS/STAG: its week (the fake's semester is 2025's) placed by parity in the
        // merged grid, with the teaching week; a full KOS exam watched from the Exams page.
        let kosWeek = seen["kos_week"]?.stringValue ?? ""
        #expect(kosWeek.contains("BI-OPT") && kosWeek.contains("Teaching week\n1") && kosWeek.contains("Week parity\nodd"), "\(kosWeek)")
        #expect(!kosWeek.contains("BI-PA2"), "the lab is on even weeks")
        #expect(
            seen["kos_watch_flash"]?.stringValue?.contains("Watching BI-OPT, exam on Sun 10 Jan 2027 09:00, for a free seat") == true,
            "\(seen["kos_watch_flash"] ?? .null)")
        #expect(seen["kos_watches"]?.stringValue?.contains("901") == true, "\(seen["kos_watches"] ?? .null)")
        // Cancel: asked first; declining left it printing; confirming stopped it.
        #expect(seen["print_question"]?.stringValue?.contains("mk3") == true, "\(seen["print_question"] ?? .null)")
        #expect(seen["print_after_decline"]?["flags"]?["printing"] == true)
        #expect(seen["print_after_confirm"]?["flags"]?["printing"] == false, "\(seen["print_after_confirm"] ?? .null)")

        // CSRF and Origin; a read device cannot write.
        #expect(seen["no_csrf"] == 403)
        #expect(seen["foreign_origin"] == 403)
        #expect(seen["read_has_form"] == 0, "no form is offered to a read device")
        #expect(seen["read_write"]?["page"]?.stringValue?.contains("This device may only read") == true, "\(seen["read_write"] ?? .null)")
        #expect(seen["read_write"]?["before"] != nil && seen["read_write"]?["before"] == seen["read_write"]?["after"])

        // Czech by Accept-Language, on Today and a notice; English chosen in Settings wins.
        #expect(seen["cs_today"]?["lang"] == "cs")
        #expect(seen["cs_today"]?["heading"]?.stringValue?.hasPrefix("Dnes") == true, "\(seen["cs_today"] ?? .null)")
        #expect(seen["cs_today"]?["nav"]?.stringValue?.contains("Rozvrh") == true)
        // Notices speak the config's language (cs here), whatever the device's.
        #expect(seen["cs_notices"]?.stringValue?.contains("Call the dean\nTermín: ") == true, "\(seen["cs_notices"] ?? .null)")
        #expect(seen["cs_overridden"]?["lang"] == "en")
        #expect(seen["cs_overridden"]?["heading"]?.stringValue?.hasPrefix("Today") == true)

        // Revoked: out at once. No page or answer carried the printer's key or a vault secret.
        #expect(seen["after_revoke"] == 401)
        #expect(seen["leaks"] == [], "\(seen["leaks"] ?? .null)")
        #expect(seen["controlled"] == true, "the service worker controls Today")

        // Offline: the daemon stopped, Today opens from the worker's copy and says when it was drawn.
        await daemon.signal(SIGTERM)
        #expect(try await daemon.exitStatus() == 0)
        let offline = try await runCommand(Peers.python, [Peers.script("web_browser.py"), "offline", setupFile], environment: environment)
        try #require(offline.status == 0, "\(offline.stderr)")
        let kept = try JSONValue.decode(offline.stdout)
        #expect(kept["heading"] == seen["kept_today"])
        #expect(kept["as_of"]?.stringValue?.wholeMatch(of: /As of \d{1,2}:\d{2}/) != nil, "\(kept)")
        print("web browser: first contentful paint at phone size \(seen["fcp_ms"] ?? .null) ms; screenshots in \(Self.shots)")
    }
}

/// How the web app's start fails, as a person reads it.
@Suite(.stopsTestHosts, .timeLimit(.minutes(1))) struct WebStartTests {
    /// A `listen` that is not loopback without TLS stops the start, naming the key.
    @Test func aNonLoopbackListenWithoutTLSStopsTheStart() async throws {
        let directory = TemporaryDirectory()
        let daemon = try DaemonProcess(directory: directory, config: "[web]\nenabled = true\nlisten = \"0.0.0.0:8470\"\n")
        #expect(try await daemon.exitStatus() == 78)
        let said = try await withDeadline(10, "the reason on stderr") { await daemon.stderr.next(1) { $0.contains("web.tls_cert") } }
        #expect(said.contains("'web.tls_cert' is required to listen on 0.0.0.0"), "\(said)")
    }

    /// A `listen` port another program holds: the daemon stops at once (73), saying which
    /// address and what to do, rather than NIO's errno.
    @Test func aTakenPortIsSaidPlainly() async throws {
        let (holder, port) = try Peers.boundPort()
        defer { close(holder) }
        try #require(listen(holder, 1) == 0)
        let daemon = try DaemonProcess(config: "[web]\nenabled = true\nlisten = \"127.0.0.1:\(port)\"\n")
        #expect(try await daemon.exitStatus() == 73)
        let said = try await withDeadline(10, "the reason on stderr") { await daemon.stderr.next(1) { $0.contains("[web] listen") } }
        #expect(
            said
                == "assistantd: the web app cannot listen on 127.0.0.1:\(port) ([web] listen): "
                + "it is in use (another program, or another assistantd); choose another address")
        // The plugins that were setting up when it stopped did nothing wrong: no error is logged for them.
        #expect(!daemon.stderr.lines.contains { $0.contains("plugin setup failed") }, "\(daemon.stderr.lines)")
    }
}
