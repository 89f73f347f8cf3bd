import PluginKit

/// The schemas of what OctoPrint itself answers, passed through as it is: free-form documents that
/// belong to OctoPrint, not results this plugin declares by type. They name the fields this plugin
/// relies on and stay open, because OctoPrint and its plugins add fields from version to version.
enum OctoPrintDocuments {
    static let version = JSONSchema.object([
        "api": .string, "server": .string, "text": JSONSchema.string.described("OctoPrint's own words, e.g. 'OctoPrint 1.11.2'"),
    ]).open

    /// One heater as OctoPrint reports it.
    static let heater = JSONSchema.object([
        "actual": JSONSchema.number.nullable, "target": JSONSchema.number.nullable, "offset?": JSONSchema.number.nullable,
    ]).open
    static let heaters = JSONSchema.map(heater).described("tool0…, bed, chamber, as OctoPrint names them")

    /// `GET /api/job`: the fields the notices and the CLI read, OctoPrint's others kept.
    static let job = JSONSchema.object([
        "job": JSONSchema.anyObject("file, estimatedPrintTime, filament, …"),
        "progress": JSONSchema.anyObject("completion (%), printTime and printTimeLeft (s), filepos"),
        "state": JSONSchema.string.described("OctoPrint's state text"), "error?": .string,
    ]).open

    /// A POST, PUT or DELETE that OctoPrint answers with no body (204).
    static let acknowledged = JSONSchema.object(["ok": .constant(true), "status": .integer])

    /// A REST command's answer: OctoPrint's JSON, or `{ok, status}` when it sends none.
    static func answer(_ method: String, _ what: String) -> JSONSchema {
        let answer = JSONSchema.anyObject("OctoPrint's answer: \(what)")
        return method == "GET" ? answer : .anyOf([acknowledged, answer])
    }

    static let uploaded = JSONSchema.anyObject("OctoPrint's answer: {done, files: {local: {name, path, refs, …}}}")
    static let folder = JSONSchema.anyObject("OctoPrint's answer: {done, folder: {name, path, origin, refs}}")

    /// `octoprint.discover`'s answer, built from the DNS-SD records as they come.
    static let discovered = JSONSchema.object([
        "printers": .array(
            .object([
                "name": .string, "url": .string, "host": .string, "address": JSONSchema.string.nullable, "port": .integer, "path": .string,
                "version": JSONSchema.string.nullable, "api": JSONSchema.string.nullable, "uuid": JSONSchema.string.nullable,
                "model": JSONSchema.string.nullable, "vendor": JSONSchema.string.nullable,
            ]))
    ])
}
