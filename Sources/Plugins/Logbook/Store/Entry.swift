import PluginKit

/// Duration columns, in EASA order. Input parameters use the bare name (`night`); results and the
/// native CSV use `<name>_min`.
enum TimeColumn: Int, CaseIterable, Sendable {
    case spSE, spME, mp, total, night, ifr, pic, spic, picus, copilot, dual, instructor, examiner

    var name: String {
        switch self {
        case .spSE: "sp_se"
        case .spME: "sp_me"
        case .mp: "mp"
        case .total: "total"
        case .night: "night"
        case .ifr: "ifr"
        case .pic: "pic"
        case .spic: "spic"
        case .picus: "picus"
        case .copilot: "copilot"
        case .dual: "dual"
        case .instructor: "instructor"
        case .examiner: "examiner"
        }
    }
    var column: String { name + "_min" }

    /// `column` as a static key, for the result writer's cache of written keys.
    var columnKey: StaticString {
        switch self {
        case .spSE: "sp_se_min"
        case .spME: "sp_me_min"
        case .mp: "mp_min"
        case .total: "total_min"
        case .night: "night_min"
        case .ifr: "ifr_min"
        case .pic: "pic_min"
        case .spic: "spic_min"
        case .picus: "picus_min"
        case .copilot: "copilot_min"
        case .dual: "dual_min"
        case .instructor: "instructor_min"
        case .examiner: "examiner_min"
        }
    }

    /// EASA column 10 (pilot function); PIC includes SPIC and PICUS in the totals of column 10.
    static let functions: [TimeColumn] = [.pic, .spic, .picus, .copilot, .dual, .instructor, .examiner]
    static let functionNames = functions.map(\.name)
}

enum CountColumn: Int, CaseIterable, Sendable {
    case takeoffsDay, takeoffsNight, landingsDay, landingsNight, approaches

    var name: String {
        switch self {
        case .takeoffsDay: "takeoffs_day"
        case .takeoffsNight: "takeoffs_night"
        case .landingsDay: "landings_day"
        case .landingsNight: "landings_night"
        case .approaches: "approaches"
        }
    }

    /// `name` as a static key (see `TimeColumn.columnKey`).
    var key: StaticString {
        switch self {
        case .takeoffsDay: "takeoffs_day"
        case .takeoffsNight: "takeoffs_night"
        case .landingsDay: "landings_day"
        case .landingsNight: "landings_night"
        case .approaches: "approaches"
        }
    }
}

enum EntryKind: String, Sendable { case flight, fstd }

/// One line of the logbook: a flight or an FSTD session.
struct Entry: Sendable, Equatable {
    var id: Int64?
    var kind: EntryKind
    var date: Day
    var dep: String?
    var arr: String?
    var out: UTCMinute?
    var off: UTCMinute?
    var on: UTCMinute?
    var inAt: UTCMinute?
    var registration: String?
    var times = [Int](repeating: 0, count: TimeColumn.allCases.count)
    var counts = [Int](repeating: 0, count: CountColumn.allCases.count)
    var picName: String?
    var remarks = ""
    var dutyStart: UTCMinute?
    var dutyEnd: UTCMinute?
    var fstdType: String?
    var fstdQualification: String?
    var deleted = false

    subscript(_ c: TimeColumn) -> Int {
        get { times[c.rawValue] }
        set { times[c.rawValue] = newValue }
    }
    subscript(_ c: CountColumn) -> Int {
        get { counts[c.rawValue] }
        set { counts[c.rawValue] = newValue }
    }

    static let storedColumns: [String] =
        ["kind", "date", "dep", "arr", "out_at", "off_at", "on_at", "in_at", "registration"]
        + TimeColumn.allCases.map(\.column) + CountColumn.allCases.map(\.name)
        + ["pic_name", "remarks", "duty_start_at", "duty_end_at", "fstd_type", "fstd_qualification"]

    static let insertSQL =
        "INSERT INTO logbook_entries (\(storedColumns.joined(separator: ","))) "
        + "VALUES (\(Array(repeating: "?", count: storedColumns.count).joined(separator: ",")))"

    /// What makes two flights the same flight (date, dep, arr, out, registration), for imports.
    var identity: String {
        switch kind {
        case .flight: "F|\(date)|\(dep ?? "")|\(arr ?? "")|\(out?.value ?? 0)|\(registration ?? "")"
        case .fstd: "S|\(date)|\(fstdType ?? "")|\(fstdQualification ?? "")|\(self[.total])|\(remarks)"
        }
    }

    var storedValues: [(any DatabaseValueConvertible)?] {
        var v: [(any DatabaseValueConvertible)?] = [
            kind.rawValue, date.description, dep, arr, out?.value, off?.value, on?.value, inAt?.value, registration,
        ]
        v += times.map { $0 }
        v += counts.map { $0 }
        v += [picName, remarks, dutyStart?.value, dutyEnd?.value, fstdType, fstdQualification]
        return v
    }

    init(kind: EntryKind, date: Day) {
        self.kind = kind
        self.date = date
    }

    /// The columns `init(row:)` reads, by position (name lookups cost more than the rest of the
    /// decoding when 100 000 entries are read): `SELECT \(Entry.selection) FROM logbook_entries`.
    static let selection = selection(prefix: "")
    static func selection(prefix: String) -> String {
        (["id", "deleted_at"] + storedColumns).map { prefix + $0 }.joined(separator: ", ")
    }

    init(row: Row) {
        id = row[0]
        deleted = !row.hasNull(atIndex: 1)
        kind = EntryKind(rawValue: row[2]) ?? .flight
        date = Day(row[3] as String) ?? Day(number: 0)
        dep = row[4]
        arr = row[5]
        out = (row[6] as Int?).map(UTCMinute.init)
        off = (row[7] as Int?).map(UTCMinute.init)
        on = (row[8] as Int?).map(UTCMinute.init)
        inAt = (row[9] as Int?).map(UTCMinute.init)
        registration = row[10]
        let t = 11
        let c = t + TimeColumn.allCases.count
        let r = c + CountColumn.allCases.count
        times = (0..<TimeColumn.allCases.count).map { row[t + $0] as Int? ?? 0 }
        counts = (0..<CountColumn.allCases.count).map { row[c + $0] as Int? ?? 0 }
        picName = row[r]
        remarks = row[r + 1] as String? ?? ""
        dutyStart = (row[r + 2] as Int?).map(UTCMinute.init)
        dutyEnd = (row[r + 3] as Int?).map(UTCMinute.init)
        fstdType = row[r + 4]
        fstdQualification = row[r + 5]
    }

    func insert(_ db: Database) throws -> Int64 {
        try db.cachedStatement(sql: Entry.insertSQL).execute(arguments: StatementArguments(storedValues))
        return db.lastInsertedRowID
    }

    func update(_ db: Database, id: Int64) throws {
        let assignments = Entry.storedColumns.map { "\($0) = ?" }.joined(separator: ",")
        try db.execute(
            sql: "UPDATE logbook_entries SET \(assignments) WHERE id = ?",
            arguments: StatementArguments(storedValues + [id]))
    }

    /// The entry as results show it, written straight into the reply (the same members as `json`).
    func write(to w: JSONDirectWriter) {
        w.beginObject()
        writeMembers(to: w)
        w.endObject()
    }

    func writeMembers(to w: JSONDirectWriter) {
        w.member("id", id.map { Int($0) })
        w.member("kind", kind.rawValue)
        w.member("date", date.description)
        w.member("remarks", remarks)
        w.member("deleted", deleted)
        for c in TimeColumn.allCases { w.member(c.columnKey, self[c]) }
        switch kind {
        case .flight:
            w.member("dep", dep)
            w.member("arr", arr)
            w.member("out", out?.description)
            w.member("off", off?.description)
            w.member("on", on?.description)
            w.member("in", inAt?.description)
            w.member("aircraft", registration)
            w.member("pic_name", picName)
            for c in CountColumn.allCases { w.member(c.key, self[c]) }
            w.member("duty_start", dutyStart?.description)
            w.member("duty_end", dutyEnd?.description)
        case .fstd:
            w.member("fstd_type", fstdType)
            w.member("fstd_qualification", fstdQualification)
        }
    }

    var json: JSONValue {
        func opt(_ s: String?) -> JSONValue { s.map(JSONValue.string) ?? .null }
        var o: [String: JSONValue] = [
            "id": id.map(JSONValue.int) ?? .null, "kind": .string(kind.rawValue), "date": .string(date.description),
            "remarks": .string(remarks), "deleted": .bool(deleted),
        ]
        for c in TimeColumn.allCases { o[c.column] = .int(Int64(self[c])) }
        switch kind {
        case .flight:
            o["dep"] = opt(dep)
            o["arr"] = opt(arr)
            o["out"] = opt(out?.description)
            o["off"] = opt(off?.description)
            o["on"] = opt(on?.description)
            o["in"] = opt(inAt?.description)
            o["aircraft"] = opt(registration)
            o["pic_name"] = opt(picName)
            for c in CountColumn.allCases { o[c.name] = .int(Int64(self[c])) }
            o["duty_start"] = opt(dutyStart?.description)
            o["duty_end"] = opt(dutyEnd?.description)
        case .fstd:
            o["fstd_type"] = opt(fstdType)
            o["fstd_qualification"] = opt(fstdQualification)
        }
        return .object(o)
    }
}

// Entries are written by `JSONDirectWriter` (a page of flights is the logbook's large answer, and
// `scripts/bench-logbook` measures it), so their schemas are declared here, beside the writer; the
// result-schema check holds the writer to them. Column lists come from the column enums, so a new
// column joins its schema by being declared.
extension Entry {
    private static var timeColumns: [(String, JSONSchema)] { TimeColumn.allCases.map { ($0.column, .minutes) } }
    private static var countColumns: [(String, JSONSchema)] { CountColumn.allCases.map { ($0.name, JSONSchema.integer) } }

    private static func entrySchema(kind: String, _ specific: [(String, JSONSchema)]) -> JSONSchema {
        let common: [(String, JSONSchema)] = [
            ("id", JSONSchema.integer.nullable.described("null in a dry run (an import's sample, a flight checked before it is logged)")),
            ("kind", .constant(.string(kind))),
            ("date", .date), ("remarks", .string), ("deleted", .boolean),
        ]
        return .object(ordered: common + timeColumns + specific)
    }

    static let flightSchema = entrySchema(
        kind: "flight",
        [
            ("dep", JSONSchema.string.nullable), ("arr", JSONSchema.string.nullable), ("out", JSONSchema.dateTime.nullable),
            ("off", JSONSchema.dateTime.nullable), ("on", JSONSchema.dateTime.nullable), ("in", JSONSchema.dateTime.nullable),
            ("aircraft", JSONSchema.string.nullable.described("registration")), ("pic_name", JSONSchema.string.nullable),
            ("duty_start", JSONSchema.dateTime.nullable), ("duty_end", JSONSchema.dateTime.nullable),
        ] + countColumns)
    static let fstdSchema = entrySchema(
        kind: "fstd", [("fstd_type", JSONSchema.string.nullable), ("fstd_qualification", JSONSchema.string.nullable)])
    static let schema = JSONSchema.anyOf([flightSchema, fstdSchema])
}

extension JSONSchema {
    static let minutes = JSONSchema.integer.described("minutes")
}

/// `logbook.flights.get`: the entry, and the attachments kept with it (never their content).
struct EntryDetail: CallResult, ResultDescribing {
    static let resultSchema: JSONSchema = {
        let attachments = JSONSchema.array(AttachmentResult.resultSchema).described("the scans and photos kept with it")
        return .anyOf([Entry.flightSchema.adding(["attachments": attachments]), Entry.fstdSchema.adding(["attachments": attachments])])
    }()

    let entry: Entry
    let attachments: [AttachmentResult]

    func writeJSON<Scrubber: JSONScrubber>(into out: inout [UInt8], scrubber: Scrubber) throws {
        JSONDirectWriter.write(into: &out, scrubber: scrubber) { w in
            w.beginObject()
            entry.writeMembers(to: w)
            w.member("attachments", each: attachments) { try? w.value($0) }
            w.endObject()
        }
    }
}

/// One entry as a command's result (`logbook.flights.get`, `add`, `update`): a flight or an FSTD
/// session (`flights.add` and `fstd.add` declare which).
struct EntryResult: CallResult, ResultDescribing {
    static let resultSchema = Entry.schema

    let entry: Entry

    func writeJSON<Scrubber: JSONScrubber>(into out: inout [UInt8], scrubber: Scrubber) throws {
        JSONDirectWriter.write(into: &out, scrubber: scrubber) { entry.write(to: $0) }
    }
}

/// A page of entries (`logbook.flights.list`), written straight into the reply.
struct EntryPage: CallResult, ResultDescribing {
    static let resultSchema = JSONSchema.object([
        "entries": .array(Entry.schema), "total_count": .integer, "limit": .integer, "offset": .integer,
    ])

    let entries: [Entry]
    let totalCount: Int
    let limit: Int
    let offset: Int

    func writeJSON<Scrubber: JSONScrubber>(into out: inout [UInt8], scrubber: Scrubber) throws {
        JSONDirectWriter.write(into: &out, scrubber: scrubber) { w in
            w.beginObject()
            w.member("total_count", totalCount)
            w.member("limit", limit)
            w.member("offset", offset)
            w.member("entries", each: entries) { $0.write(to: w) }
            w.endObject()
        }
    }
}
