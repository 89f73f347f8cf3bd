import PluginKit

/// The tasks plugin's own errors (block 1200–1299). Each case is one code with one meaning; code
/// that handles an error matches the case.
enum TasksError: PluginErrorCase {
    case noSuchTask(String)
    case categoryInUse(String, tasks: Int)
    /// The item comes from `source` (a feed, a CalDAV account) and is edited there.
    case readOnly(String)
    case eventNotCompletable
    case notDeleted(String)
    case categoryExists(String)
    case builtinCategory(String)
    case nothingToSnooze(String)
    case file(String, String)
    case badCalendarFile([JSONValue], count: Int)
    case feedExists(String)
    case feedUnreadable(String, String)
    case calendarProblem(String, String)

    /// Every code this plugin sends, in its block (checked when the plugin registers).
    static let block = ErrorBlock(
        1200...1299,
        codes: [
            1201: "the category is in use",
            1202: "the item comes from a feed or another source and is read-only here",
            1203: "an event cannot be completed",
            1204: "the task is not deleted",
            1205: "the category exists",
            1206: "a built-in category cannot be removed",
            1207: "the task has no reminder to snooze",
            1208: "a file cannot be used",
            1209: "the calendar file has bad items",
            1210: "a feed of that name exists",
            1211: "the feed could not be read",
            1212: "a CalDAV account's server refused or failed",
        ])

    static func badCalendarFile(_ problems: [JSONValue]) -> TasksError { .badCalendarFile(problems, count: problems.count) }

    var code: Int {
        switch self {
        case .noSuchTask: RPCErrorCode.notFound
        case .categoryInUse: 1201
        case .readOnly: 1202
        case .eventNotCompletable: 1203
        case .notDeleted: 1204
        case .categoryExists: 1205
        case .builtinCategory: 1206
        case .nothingToSnooze: 1207
        case .file: 1208
        case .badCalendarFile: 1209
        case .feedExists: 1210
        case .feedUnreadable: 1211
        case .calendarProblem: 1212
        }
    }

    var message: String {
        switch self {
        case .noSuchTask(let id): RPCError.notFound("task '\(id)'").message
        case .categoryInUse(let name, let tasks):
            "Category '\(name)' is used by \(tasks) task\(tasks == 1 ? "" : "s"); change their category first"
        case .readOnly(let source): "This item comes from \(source) and cannot be edited here; change it at its source"
        case .eventNotCompletable: "An event cannot be completed; cancel it with tasks.update status=cancelled"
        case .notDeleted(let id): "Task '\(id)' is not deleted"
        case .categoryExists(let name): "Category '\(name)' already exists"
        case .builtinCategory(let name): "Category '\(name)' is built in and cannot be removed"
        case .nothingToSnooze(let id): "Task '\(id)' has no reminder to snooze"
        case .file(let path, let problem): "Cannot use '\(path)': \(problem)"
        case .badCalendarFile(_, let count):
            "The file has \(count) item\(count == 1 ? "" : "s") that cannot be read; nothing was imported"
        case .feedExists(let name): "A feed named '\(name)' exists; remove it first or pick another name"
        case .feedUnreadable(let name, let problem): "Feed '\(name)' could not be read: \(problem)"
        case .calendarProblem(let account, let problem): "CalDAV account '\(account)': \(problem)"
        }
    }

    var data: JSONValue? {
        switch self {
        case .noSuchTask(let id), .notDeleted(let id), .nothingToSnooze(let id): ["id": .string(id)]
        case .categoryInUse(let name, let tasks): ["category": .string(name), "tasks": .count(tasks)]
        case .readOnly(let source): ["source": .string(source)]
        case .eventNotCompletable: nil
        case .categoryExists(let name), .builtinCategory(let name): ["category": .string(name)]
        case .file(let path, _): ["path": .string(path)]
        case .badCalendarFile(let problems, _): ["problems": .array(Array(problems.prefix(200)))]
        case .feedExists(let name), .feedUnreadable(let name, _): ["name": .string(name)]
        case .calendarProblem(let account, _): ["account": .string(account)]
        }
    }
}
