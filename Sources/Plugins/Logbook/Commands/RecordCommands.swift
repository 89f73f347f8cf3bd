import Foundation
import PluginKit

/// Profile, aircraft, certificates and airports.
extension LogbookService {
    func profileGet(_ params: Params) async throws -> ProfileResult {
        try await database.read { db in ProfileResult(profile: try Profile.load(db)) }
    }

    func profileSet(_ params: Params) async throws -> ProfileResult {
        try await database.write { db in
            var p = try Profile.load(db)
            if let v = params[LogbookParams.name] { p.name = v }
            if let v = params[LogbookParams.address] { p.address = v }
            if let v = params[LogbookParams.dateOfBirth] { p.dateOfBirth = Day(v) }
            if let v = params[LogbookParams.licences] { p.licences = v }
            if let v = params[LogbookParams.ratings] { p.ratings = v }
            if let v = params[LogbookParams.instrumentRating] { p.instrumentRating = v }
            if let v = params[LogbookParams.defaultFunction] { p.defaultFunction = v }
            if let v = params[LogbookParams.nightCriterion], let c = NightCriterion(rawValue: v) { p.nightCriterion = c }
            try p.save(db)
            return ProfileResult(profile: p)
        }
    }

    static func applyAircraft(_ params: Params, to a: inout Aircraft) {
        func text(_ key: Param<String>) -> String?? {
            guard let s = params[key] else { return nil }
            let t = s.trimmingCharacters(in: .whitespaces)
            return .some(t.isEmpty ? nil : t)
        }
        if let v = text(LogbookParams.make) { a.make = v }
        if let v = text(LogbookParams.model) { a.model = v }
        if let v = text(LogbookParams.variant) { a.variant = v }
        if let v = text(LogbookParams.typeDesignator) { a.typeDesignator = v?.uppercased() }
        if let v = text(LogbookParams.classRating) { a.classRating = v }
        if let v = params[LogbookParams.engine] { a.engine = v }
        if let v = params[LogbookParams.operation] { a.operation = v }
        if let v = params[LogbookParams.category] { a.category = v }
    }

    static func validRegistration(_ raw: String, field: String = "registration") throws(RPCError) -> String {
        let reg = Aircraft.normalized(raw)
        guard !reg.isEmpty, reg.count <= 20, reg.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else {
            throw RPCError.invalidParam(field, "'\(raw)' is not a registration (letters, digits and '-', up to 20)")
        }
        return reg
    }

    func aircraftAdd(_ params: Params) async throws -> AircraftResult {
        let reg = try Self.validRegistration(try params[LogbookParams.registration])
        return try await database.write { db in
            if try Aircraft.find(db, reg) != nil { throw LogbookError.aircraftExists(reg) }
            var a = Aircraft(registration: reg)
            Self.applyAircraft(params, to: &a)
            try a.save(db)
            return AircraftResult(aircraft: a)
        }
    }

    func aircraftList(_ params: Params) async throws -> AircraftList {
        try await database.read { db in
            let counts = Dictionary(
                uniqueKeysWithValues: try Row.fetchAll(
                    db,
                    sql:
                        "SELECT registration, COUNT(*) AS n, SUM(total_min) AS t FROM logbook_entries "
                        + "WHERE deleted_at IS NULL AND registration IS NOT NULL GROUP BY registration"
                ).map { ($0["registration"] as String, ($0["n"] as Int, $0["t"] as Int)) })
            let list = try Aircraft.all(db).values.sorted { $0.registration < $1.registration }.map { a in
                AircraftUsage(
                    aircraft: AircraftResult(aircraft: a), flights: counts[a.registration]?.0 ?? 0,
                    totalMinutes: counts[a.registration]?.1 ?? 0)
            }
            return AircraftList(aircraft: list)
        }
    }

    func aircraftUpdate(_ params: Params) async throws -> AircraftResult {
        let reg = try Self.validRegistration(try params[LogbookParams.registration])
        let newReg = try params[LogbookParams.newRegistration].map { s throws(RPCError) in
            try Self.validRegistration(s, field: LogbookParams.newRegistration.name)
        }
        return try await database.write { db in
            guard var a = try Aircraft.find(db, reg) else { throw RPCError.notFound("aircraft \(reg)") }
            Self.applyAircraft(params, to: &a)
            try a.save(db)
            if let newReg, newReg != reg {
                if try Aircraft.find(db, newReg) != nil { throw LogbookError.aircraftExists(newReg) }
                try db.execute(sql: "UPDATE logbook_aircraft SET registration = ? WHERE registration = ?", arguments: [newReg, reg])
                try db.execute(sql: "UPDATE logbook_entries SET registration = ? WHERE registration = ?", arguments: [newReg, reg])
                a.registration = newReg
            }
            return AircraftResult(aircraft: a)
        }
    }

    func aircraftDelete(_ params: Params) async throws -> AircraftDeleted {
        let reg = Aircraft.normalized(try params[LogbookParams.someRegistration])
        return try await database.write { db in
            guard try Aircraft.find(db, reg) != nil else { throw RPCError.notFound("aircraft \(reg)") }
            let used = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM logbook_entries WHERE registration = ?", arguments: [reg]) ?? 0
            if used > 0 { throw LogbookError.aircraftInUse(reg, flights: used) }
            try db.execute(sql: "DELETE FROM logbook_aircraft WHERE registration = ?", arguments: [reg])
            return AircraftDeleted(deleted: reg)
        }
    }

    // MARK: Certificates

    struct Certificate: Sendable {
        var id: Int64
        var kind: String
        var name: String
        var medicalClass: String?
        var examination: Day?
        var singlePilotCAT: Bool
        var issue: Day?
        var expiry: Day?
        var remarks: String
        var classRating: String?

        init(row: Row) {
            id = row["id"]
            kind = row["kind"]
            name = row["name"]
            medicalClass = row["medical_class"]
            examination = (row["examination_date"] as String?).flatMap { Day($0) }
            singlePilotCAT = row["single_pilot_cat_passengers"]
            issue = (row["issue_date"] as String?).flatMap { Day($0) }
            expiry = (row["expiry_date"] as String?).flatMap { Day($0) }
            remarks = row["remarks"]
            classRating = row["class_rating"]
        }

        /// The date it is valid through, and how that was decided.
        func validity(profile: Profile) -> (until: Day?, computed: MedicalRules.Validity?) {
            guard kind == "medical", let medicalClass, let examination, let birth = profile.dateOfBirth else { return (expiry, nil) }
            let computed = MedicalRules.validity(
                medicalClass: medicalClass, examination: examination, birth: birth, singlePilotCATPassengers: singlePilotCAT)
            return (expiry ?? computed.validUntil, computed)
        }
    }

    func certificatesAdd(_ params: Params) async throws -> CertificateResult {
        let kind = try params[LogbookParams.certificateKind]
        let medicalClass = params[LogbookParams.medicalClass]
        let exam = day(params, LogbookParams.examinationDate)
        let expiry = day(params, LogbookParams.expiryDate)
        let issue = day(params, LogbookParams.issueDate)
        var name = params[LogbookParams.certificateName]?.trimmingCharacters(in: .whitespaces) ?? ""
        let classRating = params[LogbookParams.certificateClass]?.trimmingCharacters(in: .whitespaces)
        if classRating != nil, kind != "rating" { throw LogbookParams.certificateClass.invalid("only applies to kind=rating") }
        if medicalClass != nil, kind != "medical" { throw LogbookParams.medicalClass.invalid("only applies to kind=medical") }
        if kind == "rating" {
            guard let classRating, !classRating.isEmpty, classRating.count <= 40 else {
                throw LogbookParams.certificateClass.invalid("is required for a rating: the class as on the licence, e.g. SEP(land)")
            }
            guard let expiry else { throw LogbookParams.expiryDate.invalid("is required for a rating (revalidation counts back from it)") }
            if let issue, expiry < issue { throw LogbookParams.expiryDate.invalid("(\(expiry)) is before the issue date (\(issue))") }
            if name.isEmpty { name = "\(classRating) class rating" }
        } else if kind == "medical" {
            guard let medicalClass else { throw LogbookParams.medicalClass.invalid("is required for a medical (class1, class2 or lapl)") }
            guard let exam else { throw LogbookParams.examinationDate.invalid("is required for a medical (the validity counts from it)") }
            if exam > today { throw LogbookParams.examinationDate.invalid("(\(exam)) is in the future") }
            if let expiry, expiry < exam { throw LogbookParams.expiryDate.invalid("(\(expiry)) is before the examination date") }
            if name.isEmpty { name = ["class1": "Class 1 medical", "class2": "Class 2 medical", "lapl": "LAPL medical"][medicalClass]! }
        } else {
            guard !name.isEmpty else { throw LogbookParams.name.invalid("is required (what the certificate or rating is)") }
            if let issue, let expiry, expiry < issue { throw LogbookParams.expiryDate.invalid("(\(expiry)) is before the issue date (\(issue))") }
        }
        let at = today
        let finalName = name
        return try await database.write { db in
            let profile = try Profile.load(db)
            if kind == "medical", expiry == nil, profile.dateOfBirth == nil { throw LogbookError.needsBirthDate }
            try db.execute(
                sql: """
                    INSERT INTO logbook_certificates (
                        kind, name, medical_class, examination_date, single_pilot_cat_passengers, issue_date, expiry_date, remarks, class_rating)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """,
                arguments: [
                    kind, finalName, medicalClass, exam?.description, params[LogbookParams.singlePilotCAT],
                    issue?.description, expiry?.description, params[LogbookParams.certificateRemarks] ?? "", classRating,
                ])
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM logbook_certificates WHERE id = ?", arguments: [db.lastInsertedRowID]) else {
                throw RPCError.internalError("the certificate just stored cannot be read back")
            }
            return CertificateResult(certificate: Certificate(row: row), profile: profile, at: at)
        }
    }

    func certificatesList(_ params: Params) async throws -> CertificateList {
        try await certificatesList(at: day(params, LogbookParams.at) ?? today)
    }

    func certificatesList(at: Day) async throws -> CertificateList {
        try await database.read { db in
            let profile = try Profile.load(db)
            let attachments = Dictionary(
                grouping: try Row.fetchAll(
                    db, sql: "SELECT \(Attachment.columns) FROM logbook_attachments WHERE certificate_id IS NOT NULL ORDER BY id"
                ).map { AttachmentResult(attachment: Attachment(row: $0)) }
            ) { $0.attachment.record.description }
            let list = try Row.fetchAll(db, sql: "SELECT * FROM logbook_certificates ORDER BY kind, id").map {
                let certificate = Certificate(row: $0)
                return CertificateResult(
                    certificate: certificate, profile: profile, at: at, attachments: attachments["certificate:\(certificate.id)"] ?? [])
            }
            return CertificateList(at: at, certificates: list)
        }
    }

    func certificatesDelete(_ params: Params) async throws -> CertificateDeleted {
        let id = try params[LogbookParams.certificateID]
        return try await database.write { db in
            try db.execute(sql: "DELETE FROM logbook_certificates WHERE id = ?", arguments: [id])
            guard db.changesCount > 0 else { throw RPCError.notFound("certificate \(id)") }
            return CertificateDeleted(deleted: id)
        }
    }

    func medical(_ params: Params) async throws -> MedicalResult {
        try await medical(at: day(params, LogbookParams.at) ?? today)
    }

    func medical(at: Day) async throws -> MedicalResult {
        try await database.read { db in
            let profile = try Profile.load(db)
            let list = try Row.fetchAll(db, sql: "SELECT * FROM logbook_certificates WHERE kind = 'medical' ORDER BY examination_date DESC")
                .map { CertificateResult(certificate: Certificate(row: $0), profile: profile, at: at) }
            return MedicalResult(at: at, dateOfBirth: profile.dateOfBirth, medicals: list)
        }
    }

    // MARK: Airports

    func airportsSearch(_ params: Params) async throws -> AirportList {
        let query = try params[LogbookParams.query]
        let limit = Int(params[LogbookParams.airportLimit])
        let lookup = try await database.read { db in try AirportLookup.load(db) }
        return AirportList(airports: lookup.search(query, limit: limit))
    }

    func airportsNear(_ params: Params) async throws -> NearAirports {
        let (latitude, longitude) = (try params[LogbookParams.latitude], try params[LogbookParams.longitude])
        let limit = Int(params[LogbookParams.nearLimit])
        let lookup = try await database.read { db in try AirportLookup.load(db) }
        return NearAirports(
            airports: lookup.near(latitude: latitude, longitude: longitude, limit: limit).map {
                NearAirports.Near(airport: $0.airport, distanceNM: ($0.nauticalMiles * 10).rounded() / 10)
            })
    }

    func airportsAdd(_ params: Params) async throws -> Airport {
        let icao = try params[LogbookParams.icao].trimmingCharacters(in: .whitespaces).uppercased()
        guard (2...8).contains(icao.count), icao.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw LogbookParams.icao.invalid("'\(icao)' must be 2 to 8 letters or digits")
        }
        let name = try params[LogbookParams.airportName]
        guard !name.trimmingCharacters(in: .whitespaces).isEmpty else { throw LogbookParams.name.invalid("must not be empty") }
        let tz = try params[LogbookParams.airportTZ]
        guard TimeZone(identifier: tz) != nil else {
            throw LogbookParams.airportTZ.invalid("'\(tz)' is not an IANA time zone (e.g. Europe/Prague)")
        }
        let airport = Airport(
            icao: icao, iata: params[LogbookParams.iata]?.uppercased(), name: name, city: nil, country: nil,
            latitude: try params[LogbookParams.latitude], longitude: try params[LogbookParams.longitude],
            elevationFeet: Int(params[LogbookParams.elevation]), timeZone: tz, userDefined: true)
        try await database.write { db in
            try db.execute(
                sql: """
                    INSERT INTO logbook_airports (icao, iata, name, latitude, longitude, elevation_ft, tz) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(icao) DO UPDATE SET iata = excluded.iata, name = excluded.name, latitude = excluded.latitude,
                        longitude = excluded.longitude, elevation_ft = excluded.elevation_ft, tz = excluded.tz
                    """,
                arguments: [airport.icao, airport.iata, airport.name, airport.latitude, airport.longitude, airport.elevationFeet, airport.timeZone])
        }
        return airport
    }
}
