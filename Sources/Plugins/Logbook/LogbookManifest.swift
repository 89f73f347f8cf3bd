import PluginKit

/// Every logbook command, declared once with its parameters and its handler; `help`, the CLI,
/// the README and the dispatch table all come from here.
enum LogbookManifest {
    static let id = "logbook"
    static let version = "1.0.0"

    static var info: PluginInfo {
        PluginInfo(
            id: id, version: version,
            summary: "EASA pilot logbook: flights, FSTD sessions, totals, FTL limits, recency, medical validity, import, PDF",
            topics: LogbookTopic.self, errors: LogbookError.block,
            options: LogbookConfig.self,
            resources: [
                ResourceDeclaration(
                    uri: "assistant://logbook/currency", name: "Pilot currency", description: "Passenger and night recency, medical validity",
                    reads: [.init(method: "logbook.currency")], topics: ["logbook.*"], prompts: ["daily_briefing"])
            ],
            pages: pages)
    }

    typealias Words = PageDeclaration.Words

    /// Its part of the web app's Logbook page: currency (lapsed rows in red), totals with the
    /// charts (by month, by aircraft, night and IFR) and the PDF, and a flight added with airports offered as typed and checked first.
    static let pages: [PageDeclaration] = {
        let airports = PageDeclaration.Form.Suggest(
            "logbook.airports.search", query: "query", member: "airports", value: "icao", label: ["name", "city"])
        return [
            PageDeclaration(.logbook, Words("Currency", "Platnost"), read: .init(method: "logbook.currency")),
            PageDeclaration(
                .logbook, Words("Totals", "Součty"), read: .init(method: "logbook.totals"),
                form: .init(
                    "logbook.flights.add", Words("Log a flight", "Zapsat let"),
                    fields: [
                        .init("date", Words("Date (UTC)", "Datum (UTC)")),
                        .init("aircraft", Words("Aircraft (registration)", "Letadlo (poznávací značka)")),
                        .init("dep", Words("From", "Odkud"), suggest: airports), .init("arr", Words("To", "Kam"), suggest: airports),
                        .init("out", Words("Off blocks (HH:MM UTC)", "Začátek pohybu (HH:MM UTC)")),
                        .init("in", Words("On blocks (HH:MM UTC)", "Konec pohybu (HH:MM UTC)")),
                        .init("function", Words("Function", "Funkce")), .init("pic_name", Words("PIC's name", "Jméno velitele")),
                        .init("remarks", Words("Remarks", "Poznámky")),
                    ], preview: .init(param: "dry_run", view: "logbook.flights.get")),
                pictures: [
                    .init(
                        "logbook.chart", Words("Flight time by month", "Doba letu po měsících"), params: ["kind": "hours_by_month"], path: "path",
                        kind: .png),
                    .init(
                        "logbook.chart", Words("Flight time by aircraft", "Doba letu podle letadel"), params: ["kind": "hours_by_aircraft"],
                        path: "path", kind: .png),
                    .init(
                        "logbook.chart", Words("Night and IFR time by month", "Noc a IFR po měsících"), params: ["kind": "night_ifr"],
                        path: "path", kind: .png),
                    .init(
                        "logbook.export", Words("The logbook as a PDF", "Zápisník jako PDF"), params: ["format": "pdf"], path: "path", kind: .pdf,
                        download: true),
                ]),
            PageDeclaration(.logbook, Words("Class ratings", "Třídní kvalifikace"), read: .init(method: "logbook.ratings")),
            PageDeclaration(.logbook, Words("Flight and duty time limits", "Limity doby letu a služby"), read: .init(method: "logbook.limits")),
        ]
    }()

    static let jobs: [PluginJob<LogbookService>] = [
        PluginJob(
            "reminders", "Warns before certificates, medicals and recency expire and near FTL limits",
            schedule: .daily(hour: 7, minute: 0), jitter: .seconds(60), timeout: .seconds(120)
        ) { try await $0.runReminders() }
    ]

    typealias Command = PluginCommand<LogbookService>

    /// The totals a pilot reads first, under a heading, from one member of `logbook.totals`.
    static func totalsFields(_ member: String, _ heading: String) -> [ResultView.Field] {
        [.init(heading: heading), .init("\(member).flights", "Flights"), .init("\(member).fstd_sessions", "FSTD sessions")]
            + [(TimeColumn.total, "Total time"), (.pic, "PIC"), (.copilot, "Co-pilot"), (.dual, "Dual"), (.night, "Night"), (.ifr, "IFR")].map {
                .init("\(member).\($0.0.column)", $0.1, .duration)
            }
            + [
                .init("\(member).fstd_min", "FSTD time", .duration), .init("\(member).landings_day", "Landings (day)"),
                .init("\(member).landings_night", "Landings (night)"),
            ]
    }

    static var commands: [Command] {
        typealias P = LogbookParams
        return [
            Command("profile.get", "Show the pilot profile", effect: .read, use: LogbookService.profileGet),
            Command(
                "profile.set", "Change the pilot profile (only the given fields)",
                params: [P.name, P.address, P.dateOfBirth, P.licences, P.ratings, P.instrumentRating, P.defaultFunction, P.nightCriterion],
                example: "assistantctl logbook.profile.set name='Jana Nováková' date_of_birth=1990-04-02",
                effect: .write, use: LogbookService.profileSet
            ).says("Updated the pilot profile[ of {name}]"),

            Command(
                "aircraft.add", "Add an aircraft", params: P.aircraftFields,
                example: "assistantctl logbook.aircraft.add registration=OK-SKA make=Cessna model=172 type_designator=C172 class_rating='SEP(land)'",
                effect: .write, use: LogbookService.aircraftAdd
            ).says("Added aircraft {registration}[: {make}][ {model}][ {variant}][ ({type_designator})][, rating {class_rating}]"),
            Command(
                "aircraft.list", "List aircraft with their flight counts", effect: .read,
                use: LogbookService.aircraftList),
            Command(
                "aircraft.update", "Change an aircraft (only the given fields)",
                params: P.aircraftFields + [P.newRegistration],
                effect: .write, use: LogbookService.aircraftUpdate
            ).says("Changed aircraft {registration}[: {make}][ {model}][ {variant}][ ({type_designator})][, rating {class_rating}]"),
            Command(
                "aircraft.delete", "Delete an aircraft that no flight uses",
                params: [P.someRegistration],
                effect: .destructive, use: LogbookService.aircraftDelete
            ).says("Deleted aircraft {deleted}").confirm("Delete the aircraft {registration}?"),

            Command(
                "flights.add", "Log a flight; total, SE/ME/MP, function time, night, takeoffs and landings are filled in when omitted",
                params: P.flight(required: true) + [P.checkOnly], result: Entry.flightSchema,
                example: "assistantctl logbook.flights.add dep=LKPR arr=LKTB out=2026-03-01T08:00:00Z in=2026-03-01T09:05:00Z aircraft=OK-SKA",
                effect: .write, use: LogbookService.flightsAdd
            ).says(
                "{dry_run:if}Would log a flight on {date:day}: {dep} → {arr}[ in {aircraft}], {total_min:hm}"
                    + "[ (PIC {pic_min:hm}, night {night_min:hm})]; nothing was saved",
                "Logged flight {id} on {date:day}: {dep} → {arr}[ in {aircraft}], {total_min:hm}[ (PIC {pic_min:hm}, night {night_min:hm})]",
                "Logged a flight on {date:day}, {total_min:hm}"),
            Command(
                "flights.get", "Show one flight or FSTD session", params: [P.entryID], effect: .read, use: LogbookService.flightsGet
            )
            .view(
                ResultView(fields: [
                    .init("id", "Record"), .init("date", "Date"), .init("aircraft", "Aircraft"), .init("dep", "From"), .init("arr", "To"),
                    .init("out", "Off blocks", .when), .init("in", "On blocks", .when), .init("fstd_type", "FSTD"),
                    .init("pic_name", "PIC"), .init("remarks", "Remarks"), .init(heading: "Times"), .init("total_min", "Total", .duration),
                    .init("pic_min", "PIC", .duration), .init("copilot_min", "Co-pilot", .duration), .init("dual_min", "Dual", .duration),
                    .init("instructor_min", "Instructor", .duration), .init("night_min", "Night", .duration), .init("ifr_min", "IFR", .duration),
                    .init("mp_min", "Multi-pilot", .duration), .init(heading: "Take-offs and landings"),
                    .init("takeoffs_day", "Take-offs by day"), .init("takeoffs_night", "Take-offs at night"),
                    .init("landings_day", "Landings by day"), .init("landings_night", "Landings at night"), .init("approaches", "Approaches"),
                ])),
            Command(
                "flights.update", "Change a flight (only the given fields; derived times follow changed block times)",
                params: [P.flightID] + P.flight(required: false), result: Entry.flightSchema,
                effect: .write, use: LogbookService.flightsUpdate
            ).says("Changed flight {id} on {date:day}: {dep} → {arr}[ in {aircraft}], {total_min:hm}", "Changed the flight[ {id}]"),
            Command(
                "flights.delete", "Delete a flight or FSTD session (kept until purged; undo with flights.restore)",
                params: [P.entryID],
                effect: .destructive, use: LogbookService.flightsDelete
            ).says("Deleted logbook entry {deleted}; it is kept until purged (undo: {undo})").confirm(
                "Delete the flight of {date:day}, {dep} → {arr}[ in {aircraft}]? It is kept until purged.",
                "Delete the {fstd_type} session of {date:day}? It is kept until purged.", "Delete logbook entry {id}? It is kept until purged.",
                details: "logbook.flights.get"),
            Command(
                "flights.restore", "Undo the deletion of an entry", params: [P.entryID], effect: .write, use: LogbookService.flightsRestore
            ).says(
                "Restored flight {id} on {date:day}: {dep} → {arr}[ in {aircraft}], {total_min:hm}",
                "Restored the {fstd_type} session {id} on {date:day}, {total_min:hm}", "Restored the logbook entry[ {id}]"),
            Command(
                "flights.purge", "Remove deleted entries for good", params: [P.purgeID], effect: .destructive, use: LogbookService.flightsPurge
            ).says("Removed deleted logbook entries for good: {purged}").confirm(
                "Remove the deleted logbook entry {id} for good?", "Remove every deleted logbook entry for good?"),
            Command(
                "flights.list", "Search the logbook",
                params: [
                    P.text, P.kind, P.aircraftFilter, P.firstDate, P.lastDate, P.minTotal, P.maxTotal, P.withFunction, P.night, P.ifr, P.deleted,
                    P.ids, P.limit, P.offset,
                ], example: "assistantctl logbook.flights.list text=LKTB night=true",
                effect: .read, use: LogbookService.flightsList
            )
            .view(
                ResultView(
                    rows: "entries",
                    columns: [
                        .init("date", "DATE", .when), .init("aircraft", "AIRCRAFT"), .init("dep", "FROM"), .init("arr", "TO"),
                        .init("total_min", "TOTAL", .duration), .init("night_min", "NIGHT", .duration, optional: true),
                        .init("ifr_min", "IFR", .duration, optional: true), .init("pic_min", "PIC", .duration, optional: true),
                        .init("remarks", "REMARKS", optional: true), .init("id", "ID", optional: true),
                    ])),

            Command(
                "fstd.add", "Log an FSTD session (EASA column 11)",
                params: [P.sessionDate, P.fstdType, P.qualification, P.sessionTotal, P.sessionRemarks], result: Entry.fstdSchema,
                example: "assistantctl logbook.fstd.add date=2026-02-10 fstd_type='A320 FFS' qualification=DE-123 total=4:00",
                effect: .write, use: LogbookService.fstdAdd
            ).says("Logged the {fstd_type} session {id} on {date:day}, {total_min:hm}", "Logged an FSTD session on {date:day}, {total_min:hm}"),
            Command(
                "fstd.list", "List FSTD sessions",
                params: P.dateRange + [P.limit, P.offset], effect: .read, use: LogbookService.fstdList
            ),
            Command(
                "fstd.delete", "Delete an FSTD session (kept until purged)", params: [P.entryID], effect: .destructive, use: LogbookService.fstdDelete
            ).says("Deleted FSTD session {deleted}; it is kept until purged (undo: {undo})").confirm(
                "Delete the {fstd_type} session of {date:day}? It is kept until purged.", "Delete FSTD session {id}? It is kept until purged.",
                details: "logbook.flights.get"),

            Command(
                "duty.add", "Log a duty period: a flight duty, standby, ground duty, positioning or training (ORO.FTL)",
                params: [P.dutyDate, P.dutyFrom, P.dutyTo, P.dutyKind, P.dutyRemarks],
                example: "assistantctl logbook.duty.add date=2026-03-02 start=05:15 end=13:40 kind=flight",
                effect: .write, use: LogbookService.dutyAdd
            ).says("Logged a {kind} duty on {date:day}, {duty_min:hm}[ with {flights:count} flights]"),
            Command("duty.get", "Show one duty period with its flights", params: [P.dutyID], effect: .read, use: LogbookService.dutyGet),
            Command(
                "duty.list", "List duty periods, newest first, each with the flights in it",
                params: [P.firstDate, P.lastDate, P.dutyKindFilter, P.limit, P.offset],
                example: "assistantctl logbook.duty.list from_date=2026-03-01", effect: .read, use: LogbookService.dutyList
            )
            .view(
                ResultView(
                    rows: "duties",
                    columns: [
                        .init("date", "DATE", .when), .init("kind", "KIND"), .init("start", "START", .when), .init("end", "END", .when),
                        .init("duty_min", "DUTY", .duration), .init("flight_min", "FLIGHT", .duration), .init("remarks", "REMARKS", optional: true),
                        .init("id", "ID", optional: true),
                    ])),
            Command(
                "duty.update", "Change a duty period (only the given fields)",
                params: [P.dutyID, P.dutyDate, P.newDutyFrom, P.newDutyTo, P.newDutyKind, P.dutyRemarks],
                effect: .write, use: LogbookService.dutyUpdate
            ).says("Changed duty {id}: {kind} on {date:day}, {duty_min:hm}"),
            Command(
                "duty.delete", "Delete a duty period (its flights stay)", params: [P.dutyID], effect: .destructive, use: LogbookService.dutyDelete
            ).says("Deleted duty {deleted}").confirm(
                "Delete the {kind} duty of {date:day}? Its flights stay.", "Delete duty {id}?", details: "logbook.duty.get"),

            Command(
                "certificates.add", "Record a medical (validity computed) or any other certificate or rating",
                params: [
                    P.certificateKind, P.certificateName, P.medicalClass, P.examinationDate, P.singlePilotCAT, P.certificateClass, P.issueDate,
                    P.expiryDate, P.certificateRemarks,
                ],
                example: "assistantctl logbook.certificates.add kind=medical medical_class=class2 examination_date=2026-05-04",
                effect: .write, use: LogbookService.certificatesAdd
            ).says("Recorded {name} (certificate {id})[, valid until {valid_until:day}]"),
            Command(
                "certificates.list", "List certificates with validity", params: [P.at],
                effect: .read, use: LogbookService.certificatesList
            ),
            Command(
                "certificates.delete", "Delete a certificate", params: [P.certificateID], effect: .destructive, use: LogbookService.certificatesDelete
            ).says("Deleted certificate {deleted}").confirm("Delete certificate {id} from the logbook?"),

            Command(
                "attachments.add", "Keep a scan or photo with a flight, an FSTD session or a certificate (JPEG, PNG or PDF, at most 20 MB)",
                params: [P.attachTo, P.attachPath, P.attachName],
                example: "assistantctl logbook.attachments.add record=certificate:3 path=~/scans/medical.pdf",
                effect: .write, use: LogbookService.attachmentsAdd
            ).says("Attached {name} ({bytes:bytes}) to record {record} as attachment {id}"),
            Command(
                "attachments.list", "List attachments: all, or one record's", params: [P.attachedTo], effect: .read,
                use: LogbookService.attachmentsList
            )
            .view(
                ResultView(
                    rows: "attachments",
                    columns: [
                        .init("id", "ID"), .init("record", "RECORD"), .init("name", "NAME"), .init("media_type", "TYPE"),
                        .init("bytes", "BYTES"), .init("added_at", "ADDED", .when),
                    ])),
            Command(
                "attachments.get", "Write an attachment to a file", params: [P.attachmentID, P.attachmentOut],
                example: "assistantctl logbook.attachments.get id=4 out=medical.pdf", effect: .write, use: LogbookService.attachmentsGet
            ).says("Wrote attachment {id} ({name}, {bytes:bytes}) to {out}").writesFiles(),
            Command(
                "attachments.delete", "Delete an attachment", params: [P.attachmentID], effect: .destructive,
                use: LogbookService.attachmentsDelete
            ).says("Deleted attachment {deleted}").confirm("Delete attachment {id} from the logbook?"),

            Command(
                "airports.search", "Find airports by ICAO/IATA code or name",
                params: [P.query, P.airportLimit], example: "assistantctl logbook.airports.search query=brno",
                effect: .read, use: LogbookService.airportsSearch
            ),
            Command(
                "airports.near", "The airports nearest a position (bundled and your own), nearest first, with their distance",
                params: [P.latitude, P.longitude, P.nearLimit], example: "assistantctl logbook.airports.near latitude=49.15 longitude=16.69",
                effect: .read, use: LogbookService.airportsNear
            )
            .view(
                ResultView(
                    rows: "airports",
                    columns: [.init("icao", "ICAO"), .init("name", "NAME"), .init("city", "CITY"), .init("distance_nm", "NM")])),
            Command(
                "airports.add", "Add a private strip or correct an airport",
                params: [P.icao, P.airportName, P.latitude, P.longitude, P.elevation, P.airportTZ, P.iata],
                effect: .write, use: LogbookService.airportsAdd
            ).says("Saved airport {icao} “{name}”[ ({iata})][, {city}][, {country}], {tz}"),

            Command(
                "totals", "EASA column totals for a period, with starting totals, groups and paper-style page totals",
                params: P.dateRange + [P.groupBy, P.pageSize, P.page],
                example: "assistantctl logbook.totals group_by=year",
                effect: .read, use: LogbookService.totals
            ).checking(.ordered(P.fromDate, P.toDate))
                .view(ResultView(fields: Self.totalsFields("period", "This period") + Self.totalsFields("grand_total", "Grand total"))),
            Command(
                "totals.starting.set", "Set the totals brought forward from a previous (paper) logbook", params: ColumnTotals.names.map(P.starting),
                example: "assistantctl logbook.totals.starting.set total=250:30 pic=180:00 landings_day=412",
                effect: .write, use: LogbookService.startingTotalsSet
            ).says("Set the totals brought forward: {starting.flights} flights, {starting.total_min:hm} total"),
            Command(
                "limits", "ORO.FTL.210 limits: duty from the duty records, flight time from the flights; used, remaining, status, when it resets",
                params: [P.at],
                effect: .read, use: LogbookService.limits
            )
            .view(
                ResultView(
                    rows: "items",
                    columns: [
                        .init("limit", "LIMIT"), .init("used_min", "USED", .duration), .init("limit_min", "OF", .duration),
                        .init("remaining_min", "LEFT", .duration), .init("status", "STATUS"), .init("resets_on", "RESETS", .when, optional: true),
                    ],
                    highlights: [.init("status", is: "exceeded", .red), .init("status", is: "approaching", .yellow)])),
            Command(
                "currency", "FCL.060(b) passenger and night recency per type or class, LAPL recency", params: [P.at],
                effect: .read, use: LogbookService.currency
            )
            .view(
                ResultView(
                    rows: "items",
                    columns: [
                        .init("group", "GROUP"), .init("rule", "RULE"), .init("status", "STATUS"), .init("valid_until", "VALID UNTIL", .when),
                        .init("days_left", "DAYS"), .init("reference", "REFERENCE", optional: true),
                    ],
                    highlights: [.init("status", is: "lapsed", .red), .init("status", is: "expiring_soon", .yellow)])),
            Command(
                "ratings", "Class ratings: expiry, and what the logbook holds towards revalidation by experience (FCL.740.A(b)(1))",
                params: [P.at], example: "assistantctl logbook.ratings", effect: .read, use: LogbookService.ratings
            )
            .view(
                ResultView(
                    rows: "ratings",
                    columns: [
                        .init("class_rating", "RATING"), .init("expiry_date", "EXPIRES", .when), .init("days_left", "DAYS"),
                        .init("met", "REVALIDATED"), .init("missing", "MISSING", optional: true),
                    ],
                    highlights: [.init("status", is: "lapsed", .red), .init("met", is: false, .yellow)])),
            Command(
                "medical", "Medical certificate validity (Part-MED MED.A.045)", params: [P.at], effect: .read,
                use: LogbookService.medical),
            Command(
                "night", "Night time, night takeoff and night landing for a leg",
                params: [P.legDep, P.legArr, P.legOut, P.legIn, P.legOff, P.legOn, P.criterion],
                example: "assistantctl logbook.night dep=LKPR arr=EGLL out=2026-01-15T15:00:00Z in=2026-01-15T17:05:00Z", effect: .read,
                use: LogbookService.night
            ),

            Command(
                "import", "Import flights from ForeFlight, LogTen Pro, mccPILOTLOG, MyFlightbook or the native CSV (one transaction)",
                params: [P.importPath, P.importFormat, P.dryRun, P.skipInvalid],
                example: "assistantctl logbook.import path=~/Downloads/logbook.csv dry_run=true", timeout: .seconds(600),
                effect: .write, use: LogbookService.importFile
            ).says(
                "Dry run, nothing written: {would_import} of {rows_read} rows to import, {duplicates} duplicates, {bad_row_count} bad",
                "Imported {imported} of {rows_read} rows; {duplicates} duplicates, {bad_row_count} bad[; new aircraft {aircraft_created:list}]"),
            Command(
                "export", "Export the native CSV or an EASA-layout PDF: the whole logbook, a period, or chosen records",
                params: [P.exportPath, P.exportFormat] + P.dateRange + P.selection + [P.withAttachments],
                example: "assistantctl logbook.export path=logbook.pdf format=pdf",
                timeout: .seconds(600), effect: .write, use: LogbookService.export
            ).says("Exported {entries} entries to {path}[ ({pages} pages)]").writesFiles().checking(.ordered(P.fromDate, P.toDate)),
            Command(
                "chart", "Draw flight time by month or by aircraft, or night and IFR time by month, as a PNG or PDF",
                params: [P.chartKind, P.chartFrom, P.chartTo, P.chartPath],
                example: "assistantctl logbook.chart kind=hours_by_month path=hours.png", timeout: .seconds(120), effect: .write,
                use: LogbookService.chart
            ).says("Drew the chart to {path} ({bars} bars, {total_min:hm} in all, {bytes:bytes})").writesFiles().checking(
                .ordered(P.chartFrom, P.chartTo)),
            Command(
                "report.mail", "Mail the logbook as an EASA PDF: the whole logbook, a period, or chosen records",
                params: [P.mailTo] + P.dateRange + P.selection + [P.withAttachments],
                example: "assistantctl logbook.report.mail to=me@example.org from_date=2026-01-01", timeout: .seconds(600),
                effect: .destructive, use: LogbookService.reportMail
            ).says("Mailed the logbook to {to}: {entries} entries on {pages} pages[ from {from_date:day}][ to {to_date:day}]").confirm(
                "{with_attachments:if}Mail the logbook as a PDF[ from {from_date}][ to {to_date}] to {to}, with the scans kept with its records "
                    + "and with your certificates (medicals included)?",
                "Mail the logbook as a PDF[ from {from_date}][ to {to_date}] to {to}?"
            ).checking(.ordered(P.fromDate, P.toDate)),
        ]
    }
}
