import Foundation
import PluginKit

/// A printer as the plugin knows it: one of its kit accounts. The API key (and basic-auth
/// password) live in the vault as `octoprint/<name>/api_key` and `octoprint/<name>/basic_password`.
struct Printer: Sendable, Equatable {
    var name: String
    var url: String
    var caFile: String?
    var basicUser: String?
    var isDefault: Bool
    /// A webcam served elsewhere than OctoPrint says (a camera of its own): these addresses
    /// replace the first webcam's.
    var streamURL: String?
    var snapshotURL: String?

    /// What keeps the printer from being used (its CA file went missing), or nil.
    var problem: String? { caFile.flatMap { SafeFile.problem(reading: $0).map { "its CA file \($0)" } } }

    init(name: String, url: String, caFile: String?, basicUser: String?, isDefault: Bool) {
        self.name = name
        self.url = url
        self.caFile = caFile
        self.basicUser = basicUser
        self.isDefault = isDefault
    }

    init(account: Accounts.Account) {
        self.init(
            name: account.name, url: account["url"]?.stringValue ?? "", caFile: account["ca_file"]?.stringValue,
            basicUser: account["basic_user"]?.stringValue, isDefault: account.isDefault)
        streamURL = account["stream_url"]?.stringValue
        snapshotURL = account["snapshot_url"]?.stringValue
    }

    /// What the account keeps besides credentials.
    var settings: [String: JSONValue] {
        [
            "url": .string(url), "ca_file": caFile.map(JSONValue.string) ?? .null, "basic_user": basicUser.map(JSONValue.string) ?? .null,
            "stream_url": streamURL.map(JSONValue.string) ?? .null, "snapshot_url": snapshotURL.map(JSONValue.string) ?? .null,
        ]
    }

    static func keyName(_ printer: String) -> String { "\(printer)/api_key" }
    static func basicPasswordName(_ printer: String) -> String { "\(printer)/basic_password" }
}

enum PrinterStore {
    static func register(_ migrations: inout PluginMigrations) {
        migrations.register("v1") { db in
            try db.execute(
                sql: """
                    CREATE TABLE octoprint_printers (
                        name TEXT PRIMARY KEY, url TEXT NOT NULL, ca_file TEXT, basic_user TEXT,
                        is_default INTEGER NOT NULL DEFAULT 0
                    )
                    """)
        }
        // Printers became the kit's accounts (host_accounts, applied before any plugin's
        // migrations); the vault names were already `octoprint/<printer>/…`.
        migrations.register("v2-accounts") { db in
            try db.execute(
                sql: """
                    INSERT OR IGNORE INTO host_accounts(plugin, name, settings, is_default, state, detail, created_at)
                    SELECT 'octoprint', name, json_object('url', url, 'ca_file', ca_file, 'basic_user', basic_user), is_default, 'ready', NULL,
                           strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
                    FROM octoprint_printers;
                    DROP TABLE octoprint_printers;
                    """)
        }
    }

    /// The printer a command means: the named one, the only one, or the default.
    static func resolve(_ printers: [Printer], _ name: String?) throws(RPCError) -> Printer {
        let names = printers.map(\.name)
        if let name {
            guard let p = printers.first(where: { $0.name == name }) else { throw OctoPrintError.unknownPrinter(name, known: names).rpcError }
            return p
        }
        if printers.count == 1 { return printers[0] }
        if let p = printers.first(where: \.isDefault) { return p }
        if printers.isEmpty { throw OctoPrintError.unknownPrinter("", known: []).rpcError }
        throw OctoPrintParams.printer.invalid(
            "is needed: there are several printers (\(names.joined(separator: ", "))) and no default; or set one with octoprint.printers.default")
    }

    static func validName(_ raw: String) throws(RPCError) -> String {
        let name = raw.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 40, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }) else {
            throw OctoPrintParams.newPrinter.invalid("'\(raw)' must be 1–40 letters, digits, '-' or '_' (it becomes part of a vault name)")
        }
        return name
    }

    static func validURL(_ raw: String) throws(RPCError) -> String {
        var url = raw.trimmingCharacters(in: .whitespaces)
        while url.hasSuffix("/") { url.removeLast() }
        guard let u = URL(string: url), let scheme = u.scheme?.lowercased(), scheme == "http" || scheme == "https", u.host != nil,
            u.query == nil
        else {
            throw OctoPrintParams.url.invalid("'\(raw)' is not an http:// or https:// address of an OctoPrint server")
        }
        return url
    }

    /// A webcam's address of its own: http(s), absolute, without a user and password in it (the
    /// printer's credentials go only to its own origin; a camera's are not kept in an address).
    /// Empty clears it.
    static func webcamURL(_ raw: String, param: String) throws(RPCError) -> String? {
        guard !raw.trimmingCharacters(in: .whitespaces).isEmpty else { return nil }
        return try HTTPAddress.checked(raw, param: param, noCredentialsInQuery: true).absoluteString
    }
}
