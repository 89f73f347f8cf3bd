import Foundation
import PluginKit

/// CONTRIBUTING.md's "Writing a plugin" example, compiled and tested: short notes with a daily digest.
/// A real plugin splits this into Manifest, Commands/, Jobs/, Store/ and Models/ files.
public struct NotesPlugin: AssistantPlugin {
    public init() {}

    // Configuration, declared once with its default and read typed; the manifest lists the keys.
    @dynamicMemberLookup
    struct Options: PluginOptions {
        let maxLength = ConfigKey<Int64>("max_length", .integer(min: 1, max: 10_000), default: 280, help: "longest note accepted")
    }

    public var info: PluginInfo {
        PluginInfo(
            id: "notes", version: "1.0.0", summary: "Short notes with a daily digest",
            topics: NotesTopic.self,
            options: Options.self)
    }

    /// The notices it posts, declared once: the manifest lists them, and posting another does not compile.
    enum NotesTopic: String, PluginTopic {
        case digest = "notes.digest"
        var summary: String { "how many notes were taken yesterday" }
    }

    /// Its parameters, each declared once with its type, constraints and help; handlers read them typed.
    static let text = Param<String>.required("text", help: "the note")
    static let id = Param<Int64>.required("id", .integer(min: 1), help: "note id")

    // Each command is declared once, with its parameters, what it does to the world (`effect`:
    // read, write or destructive; a declaration without one does not compile) and its handler,
    // whose result type declares the result. The host adds the `notes.` prefix, validates the
    // parameters and hands the handler the running service.
    public var commands: [PluginCommand<NotesService>] {
        [
            PluginCommand(
                "add", "Take a note", params: [Self.text], example: "assistantctl notes.add text='buy filament'", effect: .write,
                use: NotesService.add),
            // How a person sees the list at a terminal (assistantctl); scripts get the JSON.
            PluginCommand("list", "The notes, newest first", effect: .read, use: NotesService.list)
                .view(ResultView(rows: "notes", columns: [.init("id", "ID"), .init("created", "TAKEN", .when), .init("text", "NOTE")])),
            // A destructive command says what an AI assistant's call asks its person first.
            PluginCommand("delete", "Delete a note", params: [Self.id], effect: .destructive) { notes, params, _ in
                try await notes.delete(id: try params[Self.id])
            }.confirm("Delete note {id}?"),
        ]
    }

    public var jobs: [PluginJob<NotesService>] {
        [PluginJob("digest", "Posts yesterday's count", schedule: .daily(hour: 7, minute: 0)) { try await $0.postDigest() }]
    }

    // Tables are the plugin's own, namespaced by its id (`notes/v1`).
    public func registerMigrations(_ migrations: inout PluginMigrations) {
        migrations.register("v1") { db in
            try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL, created TEXT NOT NULL)")
        }
    }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<NotesService> {
        .ready(NotesService(context: context))
    }
}

/// A result is a typed value and the only declaration of its result: its members list gives, once per
/// field, the key, the encoding and the schema `rpc.discover` and `help` publish (with a description).
struct Note: ResultObject, CallResult {
    let id: Int64
    let text: String
    let created: String

    static let members = ResultMembers<Self>(.field("id", \.id), .field("text", \.text), .field("created", \.created, .dateTime, "when it was taken"))
}

struct NoteList: ResultObject, CallResult {
    let notes: [Note]

    static let members = ResultMembers<Self>(.field("notes", \.notes))
}

struct Deleted: ResultObject, CallResult {
    let deleted: Int64

    static let members = ResultMembers<Self>(.field("deleted", \.deleted))
}

/// What the plugin runs on: the host's database, clock, config and notices.
public final class NotesService: Sendable {
    let context: PluginContext

    init(context: PluginContext) { self.context = context }

    func add(_ params: Params) async throws -> Note {
        let text = try params[NotesPlugin.text].trimmingCharacters(in: .whitespacesAndNewlines)
        let limit = context.config[NotesPlugin.Options.maxLength]
        guard !text.isEmpty else { throw NotesPlugin.text.invalid("must not be empty") }
        guard text.count <= limit else { throw NotesPlugin.text.invalid("is longer than \(limit) characters (plugins.notes.max_length)") }
        let created = ISO8601.string(context.clock.now)
        let id = try await context.database.write { db in
            try db.execute(sql: "INSERT INTO notes(text, created) VALUES (?, ?)", arguments: [text, created])
            return db.lastInsertedRowID
        }
        return Note(id: id, text: text, created: created)
    }

    func list() async throws -> NoteList {
        let notes = try await context.database.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM notes ORDER BY id DESC").map { Note(id: $0["id"], text: $0["text"], created: $0["created"]) }
        }
        return NoteList(notes: notes)
    }

    func delete(id: Int64) async throws -> Deleted {
        let deleted = try await context.database.write { db in
            try db.execute(sql: "DELETE FROM notes WHERE id = ?", arguments: [id])
            return db.changesCount
        }
        guard deleted == 1 else { throw RPCError.notFound("no note \(id)") }
        return Deleted(deleted: id)
    }

    func postDigest() async throws {
        let since = ISO8601.string(context.clock.now.addingTimeInterval(-86_400))
        let count = try await context.database.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM notes WHERE created >= ?", arguments: [since]) ?? 0
        }
        try await context.notifier.post(
            topic: NotesPlugin.NotesTopic.digest, title: "Notes", body: "\(count) note\(count == 1 ? "" : "s") in the last day",
            dedupeKey: "digest-\(since.prefix(10))")
    }
}
