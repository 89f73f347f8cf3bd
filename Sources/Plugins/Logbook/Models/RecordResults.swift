import Foundation
import PluginKit

// Typed answers of the logbook's record commands, written straight into the reply; their
// schemas are in LogbookSchemas. A field the schema gives as "or null" is always written.

/// `aircraft.delete`, `certificates.delete`: what went.
struct Deleted<ID: Encodable & Sendable>: Encodable, CallResult {
    let deleted: ID
}

/// `flights.delete`, `fstd.delete`: the entry, and the command that brings it back.
struct EntryDeleted: Encodable, CallResult {
    let deleted: Int64
    let undo: String
}

struct Purged: Encodable, CallResult {
    let purged: Int
}

/// A certificate with its validity on a day, as `certificates.*` and `medical` show it.
struct CertificateResult: Encodable, Sendable {
    let certificate: LogbookService.Certificate
    let profile: Profile
    let at: Day

    enum Keys: String, CodingKey {
        case id, kind, name, remarks, status
        case medicalClass = "medical_class"
        case examinationDate = "examination_date"
        case issueDate = "issue_date"
        case validUntil = "valid_until"
        case daysLeft = "days_left"
        case singlePilotCAT = "single_pilot_cat_passengers"
        case computedValidUntil = "computed_valid_until"
        case expiryOverridden = "expiry_overridden"
        case ageAtExamination = "age_at_examination"
        case rule
        case expiryDate = "expiry_date"
    }

    var validUntil: Day? { certificate.validity(profile: profile).until }
    var status: ValidityStatus { ValidityStatus.of(validUntil: validUntil, at: at) }
    var lapse: String? { ValidityStatus.untilText(validUntil, at: at) }

    func encode(to encoder: any Encoder) throws {
        let c = certificate
        let (until, computed) = c.validity(profile: profile)
        var o = encoder.container(keyedBy: Keys.self)
        try o.encode(c.id, forKey: .id)
        try o.encode(c.kind, forKey: .kind)
        try o.encode(c.name, forKey: .name)
        try o.encode(c.medicalClass, forKey: .medicalClass)
        try o.encode(c.examination?.description, forKey: .examinationDate)
        try o.encode(c.issue?.description, forKey: .issueDate)
        try o.encode(c.remarks, forKey: .remarks)
        try o.encode(until?.description, forKey: .validUntil)
        try o.encode(ValidityStatus.of(validUntil: until, at: at).rawValue, forKey: .status)
        try o.encode(until.map { $0.number - at.number }, forKey: .daysLeft)
        if c.kind == "medical" {
            try o.encode(c.singlePilotCAT, forKey: .singlePilotCAT)
            try o.encode(computed?.validUntil.description, forKey: .computedValidUntil)
            try o.encode(c.expiry != nil, forKey: .expiryOverridden)
            try o.encode(computed?.ageAtExamination, forKey: .ageAtExamination)
            try o.encode(computed?.rule, forKey: .rule)
        } else {
            try o.encode(c.expiry?.description, forKey: .expiryDate)
        }
    }
}

extension CertificateResult: CallResult {}

struct CertificateList: Encodable, CallResult {
    let at: Day
    let certificates: [CertificateResult]

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(at.description, forKey: .at)
        try o.encode(certificates, forKey: .certificates)
    }

    enum CodingKeys: String, CodingKey { case at, certificates }
}

/// `medical`: every medical, newest first, and the first that has not lapsed.
struct MedicalResult: Encodable, CallResult {
    let at: Day
    let dateOfBirth: Day?
    let medicals: [CertificateResult]

    enum CodingKeys: String, CodingKey {
        case at, medicals, current
        case dateOfBirth = "date_of_birth"
    }

    /// The newest medical that has not lapsed.
    var current: CertificateResult? { medicals.first { $0.status != .lapsed } }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(at.description, forKey: .at)
        try o.encode(dateOfBirth?.description, forKey: .dateOfBirth)
        try o.encode(medicals, forKey: .medicals)
        try o.encode(current, forKey: .current)
    }
}

extension Airport: Encodable {
    enum CodingKeys: String, CodingKey {
        case icao, iata, name, city, country, latitude, longitude, tz, source
        case elevationFeet = "elevation_ft"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(icao, forKey: .icao)
        try o.encode(iata, forKey: .iata)
        try o.encode(name, forKey: .name)
        try o.encode(city, forKey: .city)
        try o.encode(country, forKey: .country)
        try o.encode(latitude, forKey: .latitude)
        try o.encode(longitude, forKey: .longitude)
        try o.encode(elevationFeet, forKey: .elevationFeet)
        try o.encode(timeZone, forKey: .tz)
        try o.encode(userDefined ? "user" : "bundled", forKey: .source)
    }
}

extension Airport: CallResult {}

struct AirportList: Encodable, CallResult {
    let airports: [Airport]
}

/// `logbook.export`: the file written; `pages` for a PDF.
struct ExportResult: Encodable, CallResult {
    let path: String
    let format: String
    let entries: Int
    let pages: Int?
}

/// `logbook.report.mail`: who was mailed the PDF, of how many entries and pages.
struct ReportMailed: Encodable, CallResult {
    let to: String
    let entries: Int
    let pages: Int
}

/// `logbook.chart`: the picture written and what it shows.
struct ChartResult: Encodable, CallResult {
    let path: String
    let kind: String
    let format: String
    let bytes: Int
    let bars: Int
    let totalMinutes: Int

    enum CodingKeys: String, CodingKey {
        case path, kind, format, bytes, bars
        case totalMinutes = "total_min"
    }
}

/// `logbook.import`: what was (or, in a dry run, would be) imported, and the bad rows (the
/// first 1 000, each its line, field and reason; all counted).
struct ImportResult: Encodable, CallResult {
    let format: String
    let path: String
    let dryRun: Bool
    let rowsRead: Int
    let duplicates: Int
    let badRows: [JSONValue]
    let badRowCount: Int
    let aircraftCreated: [String]
    let imported: Int
    /// A dry run's count of what it would import, and a sample of it (entries as `flights.get` shows them).
    let wouldImport: Int?
    let sample: [JSONValue]?

    enum CodingKeys: String, CodingKey {
        case format, path, duplicates, imported, sample
        case dryRun = "dry_run"
        case rowsRead = "rows_read"
        case badRows = "bad_rows"
        case badRowCount = "bad_row_count"
        case aircraftCreated = "aircraft_created"
        case wouldImport = "would_import"
    }
}
