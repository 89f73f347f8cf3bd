import HostCore

/// A printer as the plugin knows it; its API key (and basic-auth password) live in the vault as
/// `octoprint/<name>/api_key` and `octoprint/<name>/basic_password`.
struct Printer: Sendable, Equatable {
    var name: String
    var url: String
    var caFile: String?
    var basicUser: String?
    var isDefault: Bool

    /// What keeps the printer from being used (its CA file went missing), or nil.
    var problem: String? { caFile.flatMap { FileCheck.problem(reading: $0).map { "its CA file \($0)" } } }

    var json: JSONValue {
        ["name": .string(name), "url": .string(url), "ca_file": caFile.map(JSONValue.string) ?? .null,
         "basic_user": basicUser.map(JSONValue.string) ?? .null, "default": .bool(isDefault),
         "state": problem == nil ? "ready" : "failed", "problem": problem.map(JSONValue.string) ?? .null]
    }

    static func keyName(_ printer: String) -> String { "\(printer)/api_key" }
    static func basicPasswordName(_ printer: String) -> String { "\(printer)/basic_password" }
}

enum PrinterStore {
    static func register(_ migrations: inout PluginMigrations) {
        migrations.register("v1") { db in
            try db.execute(sql: """
                CREATE TABLE octoprint_printers (
                    name TEXT PRIMARY KEY, url TEXT NOT NULL, ca_file TEXT, basic_user TEXT,
                    is_default INTEGER NOT NULL DEFAULT 0
                )
                """)
        }
    }

    static func all(_ db: Database) throws -> [Printer] {
        try Row.fetchAll(db, sql: "SELECT * FROM octoprint_printers ORDER BY name").map {
            Printer(name: $0["name"], url: $0["url"], caFile: $0["ca_file"], basicUser: $0["basic_user"], isDefault: $0["is_default"])
        }
    }

    static func save(_ db: Database, _ p: Printer) throws {
        try db.execute(
            sql: """
                INSERT INTO octoprint_printers (name, url, ca_file, basic_user, is_default) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT(name) DO UPDATE SET url = excluded.url, ca_file = excluded.ca_file, basic_user = excluded.basic_user,
                    is_default = excluded.is_default
                """, arguments: [p.name, p.url, p.caFile, p.basicUser, p.isDefault])
    }

    /// The printer a command means: the named one, the only one, or the default.
    static func resolve(_ printers: [Printer], _ name: String?) throws(RPCError) -> Printer {
        let names = printers.map(\.name)
        if let name {
            guard let p = printers.first(where: { $0.name == name }) else { throw OctoPrintError.unknownPrinter(name, known: names) }
            return p
        }
        if printers.count == 1 { return printers[0] }
        if let p = printers.first(where: \.isDefault) { return p }
        if printers.isEmpty { throw OctoPrintError.unknownPrinter("", known: []) }
        throw OctoPrintError.whichPrinter(names)
    }

    static func validName(_ raw: String) throws(RPCError) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 40, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw RPCError.invalidParam("name", "'\(raw)' must be 1–40 letters, digits, '-' or '_' (it becomes part of a vault name)")
        }
        return name
    }

    static func validURL(_ raw: String) throws(RPCError) -> String {
        var url = raw.trimmingCharacters(in: .whitespaces)
        while url.hasSuffix("/") { url.removeLast() }
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https", u.host != nil,
            u.query == nil
        else {
            throw RPCError.invalidParam("url", "'\(raw)' is not an http:// or https:// address of an OctoPrint server")
        }
        return url
    }
}

import Foundation
