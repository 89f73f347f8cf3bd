import PluginKit

/// The JSON Schemas of the OctoPrint plugin's results. What OctoPrint itself answers is passed
/// through as it is: those schemas name the fields this plugin relies on and stay open, because
/// OctoPrint and its plugins add fields from version to version.
enum OctoPrintSchemas {
    static let printer = JSONSchema.object([
        "name": .string, "url": .string, "ca_file": JSONSchema.string.nullable, "basic_user": JSONSchema.string.nullable,
        "default": .boolean, "state": .enumeration(["ready", "failed"]), "problem": JSONSchema.string.nullable,
    ])
    static let printers = JSONSchema.object(["printers": .array(printer)])
    static let version = JSONSchema.object([
        "api": .string, "server": .string, "text": JSONSchema.string.described("OctoPrint's own words, e.g. 'OctoPrint 1.11.2'"),
    ]).open
    static let added = JSONSchema.object(["printer": printer, "octoprint": version])
    static let granted = added.adding(["granted": .boolean])
    static let removed = JSONSchema.object(["removed": .string])

    static let discovered = JSONSchema.object([
        "printers": .array(
            .object([
                "name": .string, "url": .string, "host": .string, "address": JSONSchema.string.nullable, "port": .integer, "path": .string,
                "version": JSONSchema.string.nullable, "api": JSONSchema.string.nullable, "uuid": JSONSchema.string.nullable,
                "model": JSONSchema.string.nullable, "vendor": JSONSchema.string.nullable,
            ]))
    ])

    /// One heater as OctoPrint reports it.
    static let heater = JSONSchema.object([
        "actual": JSONSchema.number.nullable, "target": JSONSchema.number.nullable, "offset?": JSONSchema.number.nullable,
    ]).open
    static let heaters = JSONSchema.map(heater).described("tool0…, bed, chamber, as OctoPrint names them")

    static let status = JSONSchema.object([
        "printer": .string, "state": JSONSchema.string.nullable.described("OctoPrint's state text (Operational, Printing, …)"),
        "connected": .boolean, "flags": JSONSchema.map(.boolean).nullable.described("printing, paused, error, ready, … (null when disconnected)"),
        "temperatures": JSONSchema.anyObject("heaters by name: {actual, target, offset}").nullable,
        "job": JSONSchema.anyObject("OctoPrint's job: file, estimatedPrintTime, filament, …").nullable,
        "progress": JSONSchema.anyObject("completion (%), printTime and printTimeLeft (s), filepos").nullable,
        "connection": JSONSchema.anyObject("port, baudrate, printerProfile, state").nullable,
    ])

    /// `GET /api/job`: the fields the notices and the CLI read, OctoPrint's others kept.
    static let job = JSONSchema.object([
        "job": JSONSchema.anyObject("file, estimatedPrintTime, filament, …"),
        "progress": JSONSchema.anyObject("completion (%), printTime and printTimeLeft (s), filepos"),
        "state": JSONSchema.string.described("OctoPrint's state text"), "error?": .string,
    ]).open

    static let saved = JSONSchema.object(["path": .string, "bytes": .integer])
    static let temperatureChart = saved.adding([
        "printer": .string, "format": .enumeration(["png", "pdf"]), "readings": .integer, "heaters": .array(.string), "from": .dateTime,
        "to": .dateTime,
        "source": JSONSchema.enumeration(["monitor", "octoprint"]).described("the live monitor's readings, or OctoPrint's own history"),
    ])
    static let snapshot = saved.adding(["webcam": .string])
    static let frames = JSONSchema.object(["files": .array(.string), "webcam": .string])
    static let webcam = JSONSchema.object([
        "name": .string, "display_name": .string, "can_snapshot": .boolean, "snapshot_url": JSONSchema.string.nullable,
        "stream_url": JSONSchema.string.nullable, "flip_h": .boolean, "flip_v": .boolean, "rotate90": .boolean,
    ])
    static let webcams = JSONSchema.anyOf([JSONSchema.object(["webcams": .array(webcam)]), webcam])

    /// A POST, PUT or DELETE that OctoPrint answers with no body (204).
    static let acknowledged = JSONSchema.object(["ok": .constant(true), "status": .integer])

    /// A REST command's answer: OctoPrint's JSON, or `{ok, status}` when it sends none.
    static func answer(_ method: String, _ what: String) -> JSONSchema {
        let answer = JSONSchema.anyObject("OctoPrint's answer: \(what)")
        return method == "GET" ? answer : .anyOf([acknowledged, answer])
    }

    static let uploaded = JSONSchema.anyObject("OctoPrint's answer: {done, files: {local: {name, path, refs, …}}}")
    static let folder = JSONSchema.anyObject("OctoPrint's answer: {done, folder: {name, path, origin, refs}}")
}
