import Foundation
import PluginKit

// Typed answers of the logbook's record commands: a `ResultObject`'s members are the declaration
// of its result; the entries declare their schemas beside their writer (Entry.swift).

/// `aircraft.delete`: what went.
struct AircraftDeleted: ResultObject, CallResult {
    let deleted: String

    static let members = ResultMembers<Self>(.field("deleted", \.deleted, "the registration"))
}

/// `certificates.delete`: what went.
struct CertificateDeleted: ResultObject, CallResult {
    let deleted: Int64

    static let members = ResultMembers<Self>(.field("deleted", \.deleted))
}

/// `flights.delete`, `fstd.delete`: the entry, and the command that brings it back.
struct EntryDeleted: ResultObject, CallResult {
    let deleted: Int64
    let undo: String

    static let members = ResultMembers<Self>(.field("deleted", \.deleted), .field("undo", \.undo, "the command that restores it"))
}

struct Purged: ResultObject, CallResult {
    let purged: Int

    static let members = ResultMembers<Self>(.field("purged", \.purged))
}

/// A certificate with its validity on a day, as `certificates.*` and `medical` show it. A medical
/// has its computed validity besides; any other certificate its given expiry.
struct CertificateResult: ResultObject, CallResult {
    let certificate: LogbookService.Certificate
    let at: Day
    let validUntil: Day?
    private let computed: MedicalRules.Validity?
    /// The scans kept with it (`certificates.list`); nil where a command does not read them.
    var attachments: [AttachmentResult]?

    init(certificate: LogbookService.Certificate, profile: Profile, at: Day, attachments: [AttachmentResult]? = nil) {
        self.certificate = certificate
        self.at = at
        (validUntil, computed) = certificate.validity(profile: profile)
        self.attachments = attachments
    }

    var status: ValidityStatus { ValidityStatus.of(validUntil: validUntil, at: at) }
    var lapse: String? { ValidityStatus.untilText(validUntil, at: at) }
    var daysLeft: Int? { validUntil.map { $0.number - at.number } }

    private var isMedical: Bool { certificate.kind == "medical" }
    var singlePilotCATPassengers: Bool? { isMedical ? certificate.singlePilotCAT : nil }
    var computedValidUntil: Day?? { isMedical ? .some(computed?.validUntil) : nil }
    var expiryOverridden: Bool? { isMedical ? certificate.expiry != nil : nil }
    var ageAtExamination: Int?? { isMedical ? .some(computed?.ageAtExamination) : nil }
    var rule: String?? { isMedical ? .some(computed?.rule) : nil }
    var expiryDate: Day?? { isMedical ? nil : .some(certificate.expiry) }

    static let members = ResultMembers<Self>(
        .field("id", \.certificate.id), .field("kind", \.certificate.kind), .field("name", \.certificate.name),
        .field("medical_class", \.certificate.medicalClass), .field("examination_date", \.certificate.examination),
        .field("issue_date", \.certificate.issue), .field("remarks", \.certificate.remarks), .field("valid_until", \.validUntil),
        .field("status", \.status), .field("days_left", \.daysLeft), .omittedWhenNil("single_pilot_cat_passengers", \.singlePilotCATPassengers),
        .omittedWhenNil("computed_valid_until", \.computedValidUntil), .omittedWhenNil("expiry_overridden", \.expiryOverridden),
        .omittedWhenNil("age_at_examination", \.ageAtExamination), .omittedWhenNil("rule", \.rule),
        .omittedWhenNil("expiry_date", \.expiryDate), .omittedWhenNil("class_rating", \.certificate.classRating),
        .omittedWhenNil("attachments", \.attachments, "the scans kept with it (certificates.list)"))
}

struct CertificateList: ResultObject, CallResult {
    let at: Day
    let certificates: [CertificateResult]

    static let members = ResultMembers<Self>(.field("at", \.at), .field("certificates", \.certificates))
}

/// `medical`: every medical, newest first, and the first that has not lapsed.
struct MedicalResult: ResultObject, CallResult {
    let at: Day
    let dateOfBirth: Day?
    let medicals: [CertificateResult]

    var current: CertificateResult? { medicals.first { $0.status != .lapsed } }

    static let members = ResultMembers<Self>(
        .field("at", \.at), .field("date_of_birth", \.dateOfBirth), .field("medicals", \.medicals),
        .field("current", \.current, "the newest medical that has not lapsed"))
}

extension Airport: ResultObject, CallResult {
    var source: String { userDefined ? "user" : "bundled" }

    static let members = ResultMembers<Self>(
        .field("icao", \.icao), .field("iata", \.iata), .field("name", \.name), .field("city", \.city), .field("country", \.country),
        .field("latitude", \.latitude), .field("longitude", \.longitude), .field("elevation_ft", \.elevationFeet), .field("tz", \.timeZone),
        .field("source", \.source, .enumeration(["bundled", "user"])))
}

struct AirportList: ResultObject, CallResult {
    let airports: [Airport]

    static let members = ResultMembers<Self>(.field("airports", \.airports))
}

/// `logbook.airports.near`: the nearest airports, nearest first.
struct NearAirports: ResultObject, CallResult {
    struct Near: ResultObject {
        let airport: Airport
        let distanceNM: Double

        static let members = ResultMembers<Self>(
            .flattened(\.airport), .field("distance_nm", \.distanceNM, .number, "great-circle distance in nautical miles"))
    }

    let airports: [Near]

    static let members = ResultMembers<Self>(.field("airports", \.airports))
}

/// `logbook.export`: the file written; `pages` for a PDF.
struct ExportResult: ResultObject, CallResult {
    let path: String
    let format: String
    let entries: Int
    let pages: Int?
    var attachments: Int? = nil

    static let members = ResultMembers<Self>(
        .field("path", \.path),
        .field("format", \.format, .enumeration(["csv", "pdf"])),
        .field("entries", \.entries),
        .omittedWhenNil("pages", \.pages, "the logbook's pages (a PDF with flights also has a page of charts after them)"),
        .omittedWhenNil("attachments", \.attachments, "with_attachments: how many were appended"))
}

/// `logbook.report.mail`: who was mailed the PDF, of how many entries and pages.
struct ReportMailed: ResultObject, CallResult {
    let to: String
    let entries: Int
    let pages: Int
    let attachments: Int?

    static let members = ResultMembers<Self>(
        .field("to", \.to), .field("entries", \.entries), .field("pages", \.pages),
        .omittedWhenNil("attachments", \.attachments, "with_attachments: how many were appended"))
}

/// `logbook.chart`: the picture written and what it shows.
struct ChartResult: ResultObject, CallResult {
    let path: String
    let kind: String
    let format: String
    let bytes: Int
    let bars: Int
    let totalMinutes: Int

    static let members = ResultMembers<Self>(
        .field("path", \.path),
        .field("kind", \.kind, .enumeration(LogbookChart.names)),
        .field("format", \.format, .enumeration(["png", "pdf"])),
        .field("bytes", \.bytes),
        .field("bars", \.bars, "months, years or aircraft shown"),
        .field("total_min", \.totalMinutes, "the first series' total (flight time, or night time)"))
}

/// `logbook.import`: what was (or, in a dry run, would be) imported, and the bad rows (the
/// first 1 000, each its line, field and reason; all counted).
struct ImportResult: ResultObject, CallResult {
    let format: String
    let path: String
    let dryRun: Bool
    let rowsRead: Int
    let duplicates: Int
    let imported: Int
    let badRows: [JSONValue]
    let badRowCount: Int
    let aircraftCreated: [String]
    let wouldImport: Int?
    let sample: [JSONValue]?

    static let members = ResultMembers<Self>(
        .field("format", \.format, .enumeration(ImportFormat.self)),
        .field("path", \.path),
        .field("dry_run", \.dryRun),
        .field("rows_read", \.rowsRead),
        .field("duplicates", \.duplicates),
        .field("imported", \.imported),
        .field("bad_rows", \.badRows, .array(.object(["line": .integer, "field": .string, "reason": .string])), "the first 1 000"),
        .field("bad_row_count", \.badRowCount),
        .field("aircraft_created", \.aircraftCreated),
        .omittedWhenNil("would_import", \.wouldImport),
        .omittedWhenNil("sample", \.sample, .array(Entry.schema), "a dry run's first entries"))
}
