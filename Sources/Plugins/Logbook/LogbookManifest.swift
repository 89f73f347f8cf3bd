import HostCore

/// Every logbook command, declared once with its parameters and its handler; `help`, the CLI,
/// the README and the dispatch table all come from here.
enum LogbookManifest {
    static let id = "logbook"
    static let version = "1.0.0"

    static let durationNote = "durations: integer minutes, or \"H:MM\" / decimal hours as strings"

    static var info: PluginInfo {
        PluginInfo(
            id: id, version: version,
            summary: "EASA pilot logbook: flights, FSTD sessions, totals, FTL limits, recency, medical validity, import, PDF",
            topics: LogbookTopic.self, errors: LogbookError.block,
            configOptions: [LogbookConfig.reminderDays.option, LogbookConfig.limitWarningPercent.option, LogbookConfig.pdfRowsPerPage.option])
    }

    static let jobs: [PluginJob<LogbookService>] = [
        PluginJob(
            "reminders", "Warns before certificates, medicals and recency expire and near FTL limits",
            schedule: .daily(hour: 7, minute: 0), jitter: .seconds(60), timeout: .seconds(120)
        ) { try await $0.runReminders() }
    ]

    typealias Command = PluginCommand<LogbookService>

    static func c(
        _ name: String, _ summary: String, _ params: [ParamSpec] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), use method: @escaping @Sendable (LogbookService) -> @Sendable (Params) async throws -> JSONValue
    ) -> Command {
        Command(name, summary, params: params, result: result, example: example, timeout: timeout, use: method)
    }

    static func c(
        _ name: String, _ summary: String, _ params: [ParamSpec] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), use method: @escaping @Sendable (LogbookService) -> @Sendable () async throws -> JSONValue
    ) -> Command {
        Command(name, summary, params: params, result: result, example: example, timeout: timeout, use: method)
    }

    static func c(
        _ name: String, _ summary: String, _ params: [ParamSpec] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120),
        use method: @escaping @Sendable (LogbookService) -> @Sendable (Params, CallContext) async throws -> JSONValue
    ) -> Command {
        Command(name, summary, params: params, result: result, example: example, timeout: timeout, use: method)
    }

    static func c(
        _ name: String, _ summary: String, _ params: [ParamSpec] = [], result: JSONSchema, example: String? = nil,
        timeout: Duration = .seconds(120), run: @escaping @Sendable (LogbookService, Params, CallContext) async throws -> JSONValue
    ) -> Command {
        Command(name, summary, params: params, result: result, example: example, timeout: timeout, run: run)
    }

    static let dateRange = [
        ParamSpec("from_date", .date, help: "first UTC date (YYYY-MM-DD)"),
        ParamSpec("to_date", .date, help: "last UTC date (YYYY-MM-DD)"),
    ]
    static let at = ParamSpec("at", .date, help: "evaluate on this UTC date (default: today)")

    static var aircraftSpecs: [ParamSpec] {
        [
            ParamSpec("registration", .string, required: true, help: "registration, e.g. OK-ABC"),
            ParamSpec("make", .string, help: "manufacturer, e.g. Cessna"),
            ParamSpec("model", .string, help: "model, e.g. 172"),
            ParamSpec("variant", .string, help: "variant, e.g. S"),
            ParamSpec("type_designator", .string, help: "ICAO type designator, e.g. C172"),
            ParamSpec("engine", .oneOf(["se", "me"]), help: "single or multi engine"),
            ParamSpec("operation", .oneOf(["sp", "mp"]), help: "single- or multi-pilot aircraft"),
            ParamSpec(
                "category", .oneOf(["aeroplane", "helicopter", "powered_lift", "airship", "sailplane", "balloon"]),
                help: "aircraft category"),
            ParamSpec("class_rating", .string, help: "class or type rating that recency counts in, e.g. SEP(land) or A320"),
        ]
    }

    static var commands: [Command] {
        var flightAdd = FlightParams.specs
        for i in flightAdd.indices where ["dep", "arr", "out", "in", "aircraft"].contains(flightAdd[i].name) {
            flightAdd[i].required = true
        }
        let startingSpecs = ColumnTotals.names.map { name in
            ParamSpec(
                name.hasSuffix("_min") ? String(name.dropLast(4)) : name, name.hasSuffix("_min") ? .duration : .integer(min: 0),
                help: name.hasSuffix("_min") ? "brought-forward \(name.dropLast(4)) time; \(durationNote)" : "brought-forward count")
        }
        return [
            c("profile.get", "Show the pilot profile", result: LogbookSchemas.profile, use: LogbookService.profileGet),
            c(
                "profile.set", "Change the pilot profile (only the given fields)",
                [
                    ParamSpec("name", .string, help: "your name as on the licence"),
                    ParamSpec("address", .string, help: "postal address"),
                    ParamSpec("date_of_birth", .date, help: "YYYY-MM-DD; needed for medical validity"),
                    ParamSpec(
                        "licences", .array(of: .any), help: "licences, e.g. [{\"type\":\"PPL(A)\",\"number\":\"CZ.FCL.123\"}] or [\"LAPL(A)\"]"),
                    ParamSpec("ratings", .array(of: .any), help: "ratings, e.g. [\"SEP(land)\", {\"name\":\"IR(A)\"}]"),
                    ParamSpec("instrument_rating", .boolean, help: "you hold an instrument rating (waives night recency)"),
                    ParamSpec("default_function", .oneOf(TimeColumn.functionNames + ["none"]), help: "function column a new flight's time goes to"),
                    ParamSpec("night_criterion", .oneOf(NightCriterion.names), help: "how night time is computed when left empty"),
                ], result: LogbookSchemas.profile, example: "assistantctl logbook.profile.set name='Jana Nováková' date_of_birth=1990-04-02",
                use: LogbookService.profileSet),

            c(
                "aircraft.add", "Add an aircraft", aircraftSpecs, result: LogbookSchemas.aircraft,
                example: "assistantctl logbook.aircraft.add registration=OK-SKA make=Cessna model=172 type_designator=C172 class_rating='SEP(land)'",
                use: LogbookService.aircraftAdd),
            c("aircraft.list", "List aircraft with their flight counts", result: LogbookSchemas.aircraftList, use: LogbookService.aircraftList),
            c(
                "aircraft.update", "Change an aircraft (only the given fields)",
                aircraftSpecs + [ParamSpec("new_registration", .string, help: "rename the aircraft (its flights follow)")],
                result: LogbookSchemas.aircraft,
                use: LogbookService.aircraftUpdate),
            c(
                "aircraft.delete", "Delete an aircraft that no flight uses",
                [ParamSpec("registration", .string, required: true, help: "registration")], result: LogbookSchemas.aircraftDeleted,
                use: LogbookService.aircraftDelete),

            c(
                "flights.add", "Log a flight; total, SE/ME/MP, function time, night, takeoffs and landings are filled in when omitted",
                flightAdd, result: LogbookSchemas.flight,
                example: "assistantctl logbook.flights.add dep=LKPR arr=LKTB out=2026-03-01T08:00:00Z in=2026-03-01T09:05:00Z aircraft=OK-SKA",
                use: LogbookService.flightsAdd),
            c(
                "flights.get", "Show one flight or FSTD session", [ParamSpec("id", .integer(min: 1), required: true, help: "entry id")],
                result: LogbookSchemas.anyEntry, use: LogbookService.flightsGet),
            c(
                "flights.update", "Change a flight (only the given fields; derived times follow changed block times)",
                [ParamSpec("id", .integer(min: 1), required: true, help: "flight id")] + FlightParams.specs, result: LogbookSchemas.flight,
                use: LogbookService.flightsUpdate),
            c(
                "flights.delete", "Delete a flight or FSTD session (kept until purged; undo with flights.restore)",
                [ParamSpec("id", .integer(min: 1), required: true, help: "entry id")], result: LogbookSchemas.deleted,
                run: { logbook, params, _ in try await logbook.entryDelete(params, kind: nil) }),
            c(
                "flights.restore", "Undo the deletion of an entry", [ParamSpec("id", .integer(min: 1), required: true, help: "entry id")],
                result: LogbookSchemas.anyEntry, use: LogbookService.flightsRestore),
            c(
                "flights.purge", "Remove deleted entries for good", [ParamSpec("id", .integer(min: 1), help: "only this entry")],
                result: LogbookSchemas.purged, use: LogbookService.flightsPurge),
            c(
                "flights.list", "Search the logbook",
                [
                    ParamSpec("text", .string, help: "free text: airport, registration, PIC name, remarks, FSTD type"),
                    ParamSpec("kind", .oneOf(["flight", "fstd", "all"]), default: "all", help: "flights, FSTD sessions or both"),
                    ParamSpec("aircraft", .string, help: "registration"),
                    ParamSpec("from_date", .date, help: "first date"), ParamSpec("to_date", .date, help: "last date"),
                    ParamSpec("min_total", .duration, help: "shortest total time; \(durationNote)"),
                    ParamSpec("max_total", .duration, help: "longest total time; \(durationNote)"),
                    ParamSpec("function", .oneOf(TimeColumn.functionNames), help: "only entries with time in this function"),
                    ParamSpec("night", .boolean, help: "only entries with (true) or without (false) night time"),
                    ParamSpec("ifr", .boolean, help: "only entries with (true) or without (false) IFR time"),
                    ParamSpec("deleted", .boolean, default: false, help: "list deleted entries instead"),
                    ParamSpec("limit", .integer(min: 1, max: 1000), default: 50, help: "page size"),
                    ParamSpec("offset", .integer(min: 0), default: 0, help: "entries to skip"),
                ], result: LogbookSchemas.page, example: "assistantctl logbook.flights.list text=LKTB night=true",
                use: LogbookService.flightsList),

            c(
                "fstd.add", "Log an FSTD session (EASA column 11)",
                [
                    ParamSpec("date", .date, required: true, help: "session date"),
                    ParamSpec("fstd_type", .string, required: true, help: "device type, e.g. 'A320 FFS'"),
                    ParamSpec("qualification", .string, help: "FSTD qualification number"),
                    ParamSpec("total", .duration, required: true, help: "session time; \(durationNote)"),
                    ParamSpec("remarks", .string, help: "remarks, e.g. the exercise"),
                ], result: LogbookSchemas.fstd,
                example: "assistantctl logbook.fstd.add date=2026-02-10 fstd_type='A320 FFS' qualification=DE-123 total=4:00",
                use: LogbookService.fstdAdd),
            c(
                "fstd.list", "List FSTD sessions",
                dateRange + [
                    ParamSpec("limit", .integer(min: 1, max: 1000), default: 50, help: "page size"),
                    ParamSpec("offset", .integer(min: 0), default: 0, help: "entries to skip"),
                ], result: LogbookSchemas.page, use: LogbookService.fstdList),
            c(
                "fstd.delete", "Delete an FSTD session (kept until purged)", [ParamSpec("id", .integer(min: 1), required: true, help: "entry id")],
                result: LogbookSchemas.deleted, run: { logbook, params, _ in try await logbook.entryDelete(params, kind: .fstd) }),

            c(
                "certificates.add", "Record a medical (validity computed) or any other certificate or rating",
                [
                    ParamSpec("kind", .oneOf(["medical", "other"]), required: true, help: "medical, or other (licence, rating, ...)"),
                    ParamSpec("name", .string, help: "what it is, e.g. 'SEP(land) rating' (medicals are named by class)"),
                    ParamSpec("medical_class", .oneOf(MedicalRules.classes), help: "medical class"),
                    ParamSpec("examination_date", .date, help: "medical examination date"),
                    ParamSpec(
                        "single_pilot_cat_passengers", .boolean, default: false,
                        help: "class 1: you fly single-pilot commercial air transport with passengers"),
                    ParamSpec("issue_date", .date, help: "issue date"),
                    ParamSpec("expiry_date", .date, help: "expiry date (for a medical: overrides the computed one, as printed)"),
                    ParamSpec("remarks", .string, help: "limitations, remarks"),
                ], result: LogbookSchemas.certificate,
                example: "assistantctl logbook.certificates.add kind=medical medical_class=class2 examination_date=2026-05-04",
                use: LogbookService.certificatesAdd),
            c(
                "certificates.list", "List certificates with validity", [at], result: LogbookSchemas.certificates,
                use: LogbookService.certificatesList),
            c(
                "certificates.delete", "Delete a certificate", [ParamSpec("id", .integer(min: 1), required: true, help: "certificate id")],
                result: LogbookSchemas.certificateDeleted, use: LogbookService.certificatesDelete),

            c(
                "airports.search", "Find airports by ICAO/IATA code or name",
                [
                    ParamSpec("query", .string, required: true, help: "code or part of the name or city"),
                    ParamSpec("limit", .integer(min: 1, max: 200), default: 20, help: "most results"),
                ], result: LogbookSchemas.airports, example: "assistantctl logbook.airports.search query=brno", use: LogbookService.airportsSearch),
            c(
                "airports.add", "Add a private strip or correct an airport",
                [
                    ParamSpec("icao", .string, required: true, help: "identifier (ICAO code or a made-up one like XXAB)"),
                    ParamSpec("name", .string, required: true, help: "name"),
                    ParamSpec("latitude", .number(min: -90, max: 90), required: true, help: "degrees north"),
                    ParamSpec("longitude", .number(min: -180, max: 180), required: true, help: "degrees east"),
                    ParamSpec("elevation_ft", .integer(min: -1500, max: 30000), default: 0, help: "elevation in feet"),
                    ParamSpec("tz", .string, required: true, help: "IANA time zone, e.g. Europe/Prague"),
                    ParamSpec("iata", .string, help: "IATA code"),
                ], result: LogbookSchemas.airport, use: LogbookService.airportsAdd),

            c(
                "totals", "EASA column totals for a period, with starting totals, groups and paper-style page totals",
                dateRange + [
                    ParamSpec("group_by", .oneOf(TotalsReport.groupings), help: "also total per group"),
                    ParamSpec("page_size", .integer(min: 5, max: 100), help: "also give page totals for pages of this many lines"),
                    ParamSpec("page", .integer(min: 1), help: "which page (default: the last)"),
                ], result: LogbookSchemas.totalsReport, example: "assistantctl logbook.totals group_by=year",
                use: LogbookService.totals),
            c(
                "totals.starting.set", "Set the totals brought forward from a previous (paper) logbook", startingSpecs,
                result: LogbookSchemas.starting, example: "assistantctl logbook.totals.starting.set total=250:30 pic=180:00 landings_day=412",
                use: LogbookService.startingTotalsSet),
            c(
                "limits", "ORO.FTL.210 flight and duty time limits: used, limit, remaining, status", [at], result: LogbookSchemas.limits,
                use: LogbookService.limits),
            c(
                "currency", "FCL.060(b) passenger and night recency per type or class, LAPL recency", [at], result: LogbookSchemas.currency,
                use: LogbookService.currency),
            c("medical", "Medical certificate validity (Part-MED MED.A.045)", [at], result: LogbookSchemas.medical, use: LogbookService.medical),
            c(
                "night", "Night time, night takeoff and night landing for a leg",
                [
                    ParamSpec("dep", .string, required: true, help: "departure airport"),
                    ParamSpec("arr", .string, required: true, help: "arrival airport"),
                    ParamSpec("out", .dateTime, required: true, help: "block off, ISO 8601 UTC"),
                    ParamSpec("in", .dateTime, required: true, help: "block on, ISO 8601 UTC"),
                    ParamSpec("off", .dateTime, help: "takeoff"), ParamSpec("on", .dateTime, help: "landing"),
                    ParamSpec("criterion", .oneOf(NightCriterion.names), help: "night definition (default: the profile's)"),
                ], result: LogbookSchemas.night,
                example: "assistantctl logbook.night dep=LKPR arr=EGLL out=2026-01-15T15:00:00Z in=2026-01-15T17:05:00Z", use: LogbookService.night),

            c(
                "import", "Import flights from ForeFlight, LogTen Pro, mccPILOTLOG, MyFlightbook or the native CSV (one transaction)",
                [
                    ParamSpec("path", .path, required: true, help: "CSV file"),
                    ParamSpec("format", .oneOf(["auto"] + ImportFormat.names), default: "auto", help: "file format (detected from the header)"),
                    ParamSpec("dry_run", .boolean, default: false, help: "only report what would be imported"),
                    ParamSpec("skip_invalid", .boolean, default: false, help: "import the good rows and skip bad ones"),
                ], result: LogbookSchemas.imported,
                example: "assistantctl logbook.import path=~/Downloads/logbook.csv dry_run=true", timeout: .seconds(600),
                use: LogbookService.importFile),
            c(
                "export", "Export the native CSV or an EASA-layout PDF",
                [
                    ParamSpec("path", .path, required: true, help: "file to write"),
                    ParamSpec("format", .oneOf(["csv", "pdf"]), required: true, help: "csv or pdf"),
                ] + dateRange, result: LogbookSchemas.exported, example: "assistantctl logbook.export path=logbook.pdf format=pdf",
                timeout: .seconds(600), use: LogbookService.export),
            c(
                "report.mail", "Mail the logbook as an EASA PDF",
                [
                    ParamSpec("to", .string, required: true, help: "mail address")
                ] + dateRange, result: LogbookSchemas.mailed, example: "assistantctl logbook.report.mail to=me@example.org from_date=2026-01-01",
                use: LogbookService.reportMail),
        ]
    }
}

/// The logbook's configuration, declared once with its defaults.
enum LogbookConfig {
    static let reminderDays = ConfigKey<[Int64]>(
        "reminder_days", .array(of: .integer(min: 1, max: 365)), default: [30, 14, 7, 1], help: "days before an expiry at which to notify")
    static let limitWarningPercent = ConfigKey<Int64>(
        "limit_warning_percent", .integer(min: 1, max: 100), default: 90, help: "notify when a flight or duty time limit reaches this share")
    static let pdfRowsPerPage = ConfigKey<Int64>(
        "pdf_rows_per_page", .integer(min: 5, max: 40), default: 14, help: "lines per PDF logbook page")
}
