import Foundation
import PluginKit

/// One of a person's STAG roles (a student with `osCislo`, a teacher with `ucitIdno`, …). Every
/// request acts as one of them through `stagUser=<userName>`. Its encoding is how the account's
/// settings keep it and `stag.status` shows it.
struct StagRole: StoredResultObject, JSONModel, Equatable {
    var userName = ""
    var role = ""
    var roleName: String?
    var faculty: String?
    var department: String?
    var studentID: String?
    var teacherID: Int64?

    static let members = ResultMembers<Self>(
        .field("user_name", \.userName), .field("role", \.role, "ST student, VY teacher, …"), .field("role_name", \.roleName),
        .field("faculty", \.faculty), .field("department", \.department), .field("osCislo", \.studentID, "student number"),
        .field("ucitIdno", \.teacherID, "teacher id"))

    /// Empty, to be read back into (`StoredResultObject`).
    init() {}

    var isStudent: Bool { role == "ST" && studentID != nil }
    var isTeacher: Bool { teacherID != nil }

    init?(_ row: StagRow.Role) {
        guard let user = row.userName, let role = row.role else { return nil }
        userName = user
        self.role = role
        roleName = row.roleNazev
        faculty = row.fakulta
        department = row.katedra
        studentID = row.osCislo
        teacherID = row.ucitIdno
    }
}

/// Who logged in: the name and every role (from `stagUserInfo`, or the V2 role list).
struct StagIdentity: Sendable, Equatable {
    var name: String?
    var email: String?
    var roles: [StagRole]

    init(name: String?, email: String?, roles: [StagRole]) {
        self.name = name
        self.email = email
        self.roles = roles
    }

    /// The decoded `stagUserInfo` of the login callback, or a V2 role list.
    init?(_ json: JSONValue) {
        guard let info = JSONTreeDecoder.row(json, as: StagRow.UserInfo.self) else { return nil }
        let roles = info.stagUserInfo.compactMap(StagRole.init)
        guard !roles.isEmpty else { return nil }
        // Titles after the name are left out here, as the login page shows it.
        let parts = [info.titulPred, info.jmeno, info.prijmeni].compactMap { $0 }
        self.init(name: parts.isEmpty ? nil : parts.joined(separator: " "), email: info.email, roles: roles)
    }

    var student: StagRole? { roles.first(where: \.isStudent) }
    var teacher: StagRole? { roles.first(where: \.isTeacher) }
}

/// What the login page's redirect brought back (reference §2.1).
struct StagCallback: Sendable, Equatable {
    var ticket: String
    var userName: String?
    var role: String?
    var identity: StagIdentity?

    /// Reads the four parameters. A `+` of the base64 that arrived as a space is put back;
    /// `anonymous` or an empty ticket is a cancelled login.
    static func parse(items: [String: String]) throws(RPCError) -> StagCallback {
        let ticket = (items["stagUserTicket"] ?? "").trimmingCharacters(in: .whitespaces)
        guard !ticket.isEmpty, ticket != "anonymous" else { throw StagError.loginCancelled.rpcError }
        guard ticket.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F && $0 != 0x3B && $0 != 0x2C }) else {
            throw StagParams.ticket.invalid("is not a STAG ticket (it has spaces, ';' or ',')")
        }
        var identity: StagIdentity?
        if let info = items["stagUserInfo"], !info.isEmpty {
            identity = decodeInfo(info)
        }
        return StagCallback(
            ticket: ticket, userName: items["stagUserName"].flatMap { $0.isEmpty ? nil : $0 },
            role: items["stagUserRole"].flatMap { $0.isEmpty ? nil : $0 }, identity: identity)
    }

    static func decodeInfo(_ text: String) -> StagIdentity? {
        var base64 = text.replacingOccurrences(of: " ", with: "+").replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        guard let data = Data(base64Encoded: base64), let json = try? JSONValue.decode(bytes: Array(data)) else { return nil }
        return StagIdentity(json)
    }

    /// A pasted callback address: its query.
    static func parse(url text: String) throws(RPCError) -> StagCallback {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespacesAndNewlines)), let items = components.queryItems,
            items.contains(where: { $0.name == "stagUserTicket" })
        else {
            throw StagParams.callbackURL.invalid("is not the address the login page sent the browser to (it has no stagUserTicket)")
        }
        var values: [String: String] = [:]
        for item in items { values[item.name] = item.value ?? "" }
        return try parse(items: values)
    }
}

/// What a Stag account keeps in the kit's settings (written at login), read and written typed:
/// the instance, the university it was chosen as, who logged in, and their roles. A setting that
/// does not read (an older or edited row) is nil, a role that does not read is left out.
struct StagAccountSettings: ResultObject, Decodable, Sendable, Equatable {
    var baseURL: String?
    var university: String?
    var name: String?
    var email: String?
    var roles: [StagRole]
    var loggedInAt: String?

    static let members = ResultMembers<Self>(
        .field("base_url", \.baseURL), .field("university", \.university), .field("name", \.name), .field("email", \.email),
        .field("roles", \.roles), .field("logged_in_at", \.loggedInAt))

    init(baseURL: String?, university: String?, name: String?, email: String?, roles: [StagRole], loggedInAt: String?) {
        self.baseURL = baseURL
        self.university = university
        self.name = name
        self.email = email
        self.roles = roles
        self.loggedInAt = loggedInAt
    }

    /// Read leniently, not through the members: a setting of the wrong type is nil and a role that
    /// does not read is left out, so an older or edited row still gives the account.
    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: ResultKey.self)
        func text(_ key: String) -> String? { (try? c.decodeIfPresent(String.self, forKey: ResultKey(stringValue: key))) ?? nil }
        baseURL = text("base_url")
        university = text("university")
        name = text("name")
        email = text("email")
        loggedInAt = text("logged_in_at")
        // Each role from the tree as it stands: this runs for every command's session.
        let roleRows = (try? c.decodeIfPresent([JSONValue].self, forKey: ResultKey(stringValue: "roles"))) ?? nil
        roles = JSONTreeDecoder.rows(roleRows ?? [], as: StagRole.self)
    }

    /// The account's settings.
    init(_ account: Accounts.Account) {
        self =
            (try? Self(from: JSONTreeDecoder(value: .object(account.settings))))
            ?? Self(baseURL: nil, university: nil, name: nil, email: nil, roles: [], loggedInAt: nil)
    }

    /// As the kit stores them.
    var settings: [String: JSONValue] { (try? JSONValue.decode(bytes: JSONStreamEncoder.encode(self)))?.objectValue ?? [:] }
}
