import PluginKit

/// Every parameter of the logbook's commands, declared once and read typed (`p[LogbookParams.entryID]`).
/// Time and count columns have a key each, made from their enums.
enum LogbookParams {
    static let durationNote = "durations: integer minutes, or \"H:MM\" / decimal hours as strings"
    static let durationHelp = "duration: minutes as an integer, or \"H:MM\" / decimal hours as a string"

    // A flight's fields (flights.add, flights.update).
    static let date = Param<String>("date", .date, help: "UTC date of block off (YYYY-MM-DD); needed when out/in are given as HH:MM")
    static let dep = Param<String>("dep", help: "departure airport (ICAO, or IATA)")
    static let arr = Param<String>("arr", help: "arrival airport (ICAO, or IATA)")
    static let out = Param<String>("out", help: "block off, ISO 8601 UTC (or HH:MM on 'date')")
    static let off = Param<String>("off", help: "takeoff, ISO 8601 UTC (or HH:MM)")
    static let on = Param<String>("on", help: "landing, ISO 8601 UTC (or HH:MM)")
    static let inTime = Param<String>("in", help: "block on, ISO 8601 UTC (or HH:MM; earlier than out means the next day)")
    static let aircraft = Param<String>("aircraft", help: "registration of an aircraft in the logbook")
    static let function = Param<String>(
        "function", .oneOf(TimeColumn.functionNames + ["none"]),
        help: "put the whole flight time in this function column (default: the profile's default function)")
    static let picName = Param<String>("pic_name", help: "name of the PIC (SELF when you were PIC)")
    static let remarks = Param<String>("remarks", help: "remarks and endorsements")
    static let dutyStart = Param<String>(
        "duty_start", help: "duty period start, ISO 8601 UTC (or HH:MM on the flight's date; \"\" with duty_end \"\" clears it)")
    static let dutyEnd = Param<String>("duty_end", help: "duty period end, ISO 8601 UTC (or HH:MM; before the start means the next day)")

    static func time(_ c: TimeColumn) -> Param<JSONValue> {
        Param(
            c.name, .duration,
            help: "\(c.name) time; \(durationHelp)\(c == .night ? " (computed when omitted)" : c == .total ? " (out..in when omitted)" : "")")
    }
    static func count(_ c: CountColumn) -> Param<Int64> {
        Param(c.name, .integer(min: 0, max: 999), help: "\(c.name.replacingOccurrences(of: "_", with: " ")) (count)")
    }

    /// The fields in the order `help` lists them; `required` marks the ones logging a flight needs.
    static func flight(required: Bool) -> [any ParamDeclaration] {
        let needed: [any ParamDeclaration] =
            required
            ? [dep.required, arr.required, out.required, off, on, inTime.required, aircraft.required] : [dep, arr, out, off, on, inTime, aircraft]
        return [date] + needed + TimeColumn.allCases.map(time) + CountColumn.allCases.map(count)
            + [function, picName, remarks, dutyStart, dutyEnd]
    }

    // The profile
    static let name = Param<String>("name", help: "your name as on the licence")
    static let address = Param<String>("address", help: "postal address")
    static let dateOfBirth = Param<String>("date_of_birth", .date, help: "YYYY-MM-DD; needed for medical validity")
    static let licences = Param<[JSONValue]>(
        "licences", help: "licences, e.g. [{\"type\":\"PPL(A)\",\"number\":\"CZ.FCL.123\"}] or [\"LAPL(A)\"]")
    static let ratings = Param<[JSONValue]>("ratings", help: "ratings, e.g. [\"SEP(land)\", {\"name\":\"IR(A)\"}]")
    static let instrumentRating = Param<Bool>("instrument_rating", help: "you hold an instrument rating (waives night recency)")
    static let defaultFunction = Param<String>(
        "default_function", .oneOf(TimeColumn.functionNames + ["none"]), help: "function column a new flight's time goes to")
    static let nightCriterion = Param<String>("night_criterion", .oneOf(NightCriterion.names), help: "how night time is computed when left empty")

    // Aircraft
    static let registration = Param<String>.required("registration", help: "registration, e.g. OK-ABC")
    static let make = Param<String>("make", help: "manufacturer, e.g. Cessna")
    static let model = Param<String>("model", help: "model, e.g. 172")
    static let variant = Param<String>("variant", help: "variant, e.g. S")
    static let typeDesignator = Param<String>("type_designator", help: "ICAO type designator, e.g. C172")
    static let engine = Param<String>("engine", .oneOf(["se", "me"]), help: "single or multi engine")
    static let operation = Param<String>("operation", .oneOf(["sp", "mp"]), help: "single- or multi-pilot aircraft")
    static let category = Param<String>(
        "category", .oneOf(["aeroplane", "helicopter", "powered_lift", "airship", "sailplane", "balloon"]), help: "aircraft category")
    static let classRating = Param<String>("class_rating", help: "class or type rating that recency counts in, e.g. SEP(land) or A320")
    static let newRegistration = Param<String>("new_registration", help: "rename the aircraft (its flights follow)")
    static let someRegistration = Param<String>.required("registration", help: "registration")
    static var aircraftFields: [any ParamDeclaration] {
        [registration, make, model, variant, typeDesignator, engine, operation, category, classRating]
    }

    // Entries
    static let entryID = Param<Int64>.required("id", .integer(min: 1), help: "entry id")
    static let flightID = Param<Int64>.required("id", .integer(min: 1), help: "flight id")
    static let purgeID = Param<Int64>("id", .integer(min: 1), help: "only this entry")
    static let text = Param<String>("text", help: "free text: airport, registration, PIC name, remarks, FSTD type")
    static let kind = Param<String>.defaulted("kind", .oneOf(["flight", "fstd", "all"]), default: "all", help: "flights, FSTD sessions or both")
    static let aircraftFilter = Param<String>("aircraft", help: "registration")
    static let firstDate = Param<String>("from_date", .date, help: "first date")
    static let lastDate = Param<String>("to_date", .date, help: "last date")
    static let minTotal = Param<JSONValue>("min_total", .duration, help: "shortest total time; \(durationNote)")
    static let maxTotal = Param<JSONValue>("max_total", .duration, help: "longest total time; \(durationNote)")
    static let withFunction = Param<String>("function", .oneOf(TimeColumn.functionNames), help: "only entries with time in this function")
    static let night = Param<Bool>("night", help: "only entries with (true) or without (false) night time")
    static let ifr = Param<Bool>("ifr", help: "only entries with (true) or without (false) IFR time")
    static let deleted = Param<Bool>.defaulted("deleted", default: false, help: "list deleted entries instead")
    static let limit = Param<Int64>.defaulted("limit", .integer(min: 1, max: 1000), default: 50, help: "page size")
    static let offset = Param<Int64>.defaulted("offset", .integer(min: 0), default: 0, help: "entries to skip")

    // FSTD sessions
    static let sessionDate = Param<String>.required("date", .date, help: "session date")
    static let fstdType = Param<String>.required("fstd_type", help: "device type, e.g. 'A320 FFS'")
    static let qualification = Param<String>("qualification", help: "FSTD qualification number")
    static let sessionTotal = Param<JSONValue>.required("total", .duration, help: "session time; \(durationNote)")
    static let sessionRemarks = Param<String>("remarks", help: "remarks, e.g. the exercise")

    // Certificates
    static let certificateKind = Param<String>.required(
        "kind", .oneOf(["medical", "rating", "other"]), help: "medical, a class rating (revalidation is followed), or other (licence, ...)")
    static let certificateClass = Param<String>("class_rating", help: "kind=rating: the class, as on the licence, e.g. SEP(land) or TMG")
    static let certificateName = Param<String>("name", help: "what it is, e.g. 'SEP(land) rating' (medicals are named by class)")
    static let medicalClass = Param<String>("medical_class", .oneOf(MedicalRules.classes), help: "medical class")
    static let examinationDate = Param<String>("examination_date", .date, help: "medical examination date")
    static let singlePilotCAT = Param<Bool>.defaulted(
        "single_pilot_cat_passengers", default: false, help: "class 1: you fly single-pilot commercial air transport with passengers")
    static let issueDate = Param<String>("issue_date", .date, help: "issue date")
    static let expiryDate = Param<String>(
        "expiry_date", .date, help: "expiry date (a rating needs it; for a medical it overrides the computed one, as printed)")
    static let certificateRemarks = Param<String>("remarks", help: "limitations, remarks")
    static let certificateID = Param<Int64>.required("id", .integer(min: 1), help: "certificate id")
    static let at = Param<String>("at", .date, help: "evaluate on this UTC date (default: today)")

    // Duty periods
    static let dutyID = Param<Int64>.required("id", .integer(min: 1), help: "duty id")
    static let dutyDate = Param<String>("date", .date, help: "UTC date the clock times are read on (YYYY-MM-DD)")
    static let dutyFrom = Param<String>.required("start", help: "start, ISO 8601 UTC (or HH:MM on 'date')")
    static let dutyTo = Param<String>.required("end", help: "end, ISO 8601 UTC (or HH:MM; before the start means the next day)")
    static let newDutyFrom = Param<String>("start", help: "new start, ISO 8601 UTC (or HH:MM on 'date' or the duty's date)")
    static let newDutyTo = Param<String>("end", help: "new end, ISO 8601 UTC (or HH:MM; before the start means the next day)")
    static let dutyKind = Param<String>.defaulted(
        "kind", .oneOf(DutyKind.names), default: "flight",
        help: "what the duty was; standby away from the airport counts a quarter towards the limits (CS FTL.1.225)")
    static let newDutyKind = Param<String>("kind", .oneOf(DutyKind.names), help: "what the duty was")
    static let dutyKindFilter = Param<String>("kind", .oneOf(DutyKind.names), help: "only duties of this kind")
    static let dutyRemarks = Param<String>("remarks", help: "remarks, e.g. the roster's code")

    // Attachments
    static let attachTo = Param<String>.required("record", help: "what it belongs to: a flight's or FSTD session's id (12), or certificate:3")
    static let attachPath = Param<String>.required("path", .path, help: "a JPEG, PNG or PDF file, at most 20 MB (told by its content)")
    static let attachName = Param<String>("name", help: "what to call it (default: the file's name)")
    static let attachedTo = Param<String>("record", help: "only this record's: 12 or certificate:3")
    static let attachmentID = Param<Int64>.required("id", .integer(min: 1), help: "attachment id")
    static let attachmentOut = Param<String>.required("out", .path, help: "the file to write it to")
    static let withAttachments = Param<Bool>.defaulted(
        "with_attachments", default: false,
        help: "pdf: append the records' attachments (pictures drawn on pages, PDFs after them) and the certificates'")

    // Airports
    static let query = Param<String>.required("query", help: "code or part of the name or city")
    static let airportLimit = Param<Int64>.defaulted("limit", .integer(min: 1, max: 200), default: 20, help: "most results")
    static let nearLimit = Param<Int64>.defaulted("limit", .integer(min: 1, max: 50), default: 10, help: "most results")
    static let icao = Param<String>.required("icao", help: "identifier (ICAO code or a made-up one like XXAB)")
    static let airportName = Param<String>.required("name", help: "name")
    static let latitude = Param<Double>.required("latitude", .number(min: -90, max: 90), help: "degrees north")
    static let longitude = Param<Double>.required("longitude", .number(min: -180, max: 180), help: "degrees east")
    static let elevation = Param<Int64>.defaulted("elevation_ft", .integer(min: -1500, max: 30000), default: 0, help: "elevation in feet")
    static let airportTZ = Param<String>.required("tz", help: "IANA time zone, e.g. Europe/Prague")
    static let iata = Param<String>("iata", help: "IATA code")

    // Reports
    static let fromDate = Param<String>("from_date", .date, help: "first UTC date (YYYY-MM-DD)")
    static let toDate = Param<String>("to_date", .date, help: "last UTC date (YYYY-MM-DD)")
    static var dateRange: [any ParamDeclaration] { [fromDate, toDate] }
    /// What an examiner or an employer asks for: chosen records, or the records a search finds.
    static let ids = Param<[JSONValue]>(
        "ids", .array(of: .integer(min: 1)), help: "only these records (ids as logbook.flights.list shows them), at most 10 000")
    static var selection: [any ParamDeclaration] { [ids, text, aircraftFilter, withFunction, night, ifr] }
    static let groupBy = Param<String>("group_by", .oneOf(TotalsReport.groupings), help: "also total per group")
    static let pageSize = Param<Int64>("page_size", .integer(min: 5, max: 100), help: "also give page totals for pages of this many lines")
    static let page = Param<Int64>("page", .integer(min: 1), help: "which page (default: the last)")
    /// A brought-forward total: `total` for `total_min`, `landings_day` for itself.
    static func starting(_ column: String) -> Param<JSONValue> {
        column.hasSuffix("_min")
            ? Param(String(column.dropLast(4)), .duration, help: "brought-forward \(column.dropLast(4)) time; \(durationNote)")
            : Param(column, .integer(min: 0), help: "brought-forward count")
    }
    static let legDep = Param<String>.required("dep", help: "departure airport")
    static let legArr = Param<String>.required("arr", help: "arrival airport")
    static let legOut = Param<String>.required("out", .dateTime, help: "block off, ISO 8601 UTC")
    static let legIn = Param<String>.required("in", .dateTime, help: "block on, ISO 8601 UTC")
    static let legOff = Param<String>("off", .dateTime, help: "takeoff")
    static let legOn = Param<String>("on", .dateTime, help: "landing")
    static let criterion = Param<String>("criterion", .oneOf(NightCriterion.names), help: "night definition (default: the profile's)")

    // Files and mail
    static let importPath = Param<String>.required("path", .path, help: "CSV file")
    static let importFormat = Param<String>.defaulted(
        "format", .oneOf(["auto"] + ImportFormat.names), default: "auto", help: "file format (detected from the header)")
    static let dryRun = Param<Bool>.defaulted("dry_run", default: false, help: "only report what would be imported")
    static let checkOnly = Param<Bool>.defaulted(
        "dry_run", default: false, help: "check the flight and show what would be logged, derived times included; save nothing")
    static let skipInvalid = Param<Bool>.defaulted("skip_invalid", default: false, help: "import the good rows and skip bad ones")
    static let exportPath = Param<String>.required("path", .path, help: "file to write")
    static let exportFormat = Param<String>.required("format", .oneOf(["csv", "pdf"]), help: "csv or pdf")
    static let mailTo = Param<String>.required("to", help: "mail address")

    // Charts
    static let chartKind = Param<String>.required("kind", .oneOf(LogbookChart.names), help: "what the chart shows")
    static let chartFrom = Param<String>("from", .date, help: "first UTC date (YYYY-MM-DD)")
    static let chartTo = Param<String>("to", .date, help: "last UTC date (YYYY-MM-DD)")
    static let chartPath = Param<String>.required("path", .path, help: "the PNG or PDF file to write (chosen by its extension)")
}
