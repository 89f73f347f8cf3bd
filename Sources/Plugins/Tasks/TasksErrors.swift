import HostCore

/// The tasks plugin's own error codes (block 1200–1299, listed in the README).
enum TasksError {
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

    static func noSuchTask(_ id: String) -> RPCError {
        RPCError.notFound("task '\(id)'", data: ["id": .string(id)])
    }
    static func categoryInUse(_ name: String, tasks: Int) -> RPCError {
        RPCError(
            code: 1201, message: "Category '\(name)' is used by \(tasks) task\(tasks == 1 ? "" : "s"); change their category first",
            data: ["category": .string(name), "tasks": .count(tasks)])
    }
    static func readOnly(_ source: String) -> RPCError {
        RPCError(
            code: 1202, message: "This item comes from \(source) and cannot be edited here; change it at its source",
            data: ["source": .string(source)])
    }
    static func eventNotCompletable() -> RPCError {
        RPCError(code: 1203, message: "An event cannot be completed; cancel it with tasks.update status=cancelled")
    }
    static func notDeleted(_ id: String) -> RPCError {
        RPCError(code: 1204, message: "Task '\(id)' is not deleted", data: ["id": .string(id)])
    }
    static func categoryExists(_ name: String) -> RPCError {
        RPCError(code: 1205, message: "Category '\(name)' already exists", data: ["category": .string(name)])
    }
    static func builtinCategory(_ name: String) -> RPCError {
        RPCError(code: 1206, message: "Category '\(name)' is built in and cannot be removed", data: ["category": .string(name)])
    }
    static func nothingToSnooze(_ id: String) -> RPCError {
        RPCError(code: 1207, message: "Task '\(id)' has no reminder to snooze", data: ["id": .string(id)])
    }
    static func file(_ path: String, _ problem: String) -> RPCError {
        RPCError(code: 1208, message: "Cannot use '\(path)': \(problem)", data: ["path": .string(path)])
    }
    static func badCalendarFile(_ problems: [JSONValue], count: Int? = nil) -> RPCError {
        let count = count ?? problems.count
        return RPCError(
            code: 1209, message: "The file has \(count) item\(count == 1 ? "" : "s") that cannot be read; nothing was imported",
            data: ["problems": .array(Array(problems.prefix(200)))])
    }
    static func feedExists(_ name: String) -> RPCError {
        RPCError(code: 1210, message: "A feed named '\(name)' exists; remove it first or pick another name", data: ["name": .string(name)])
    }
    static func feedUnreadable(_ name: String, _ problem: String) -> RPCError {
        RPCError(code: 1211, message: "Feed '\(name)' could not be read: \(problem)", data: ["name": .string(name)])
    }
    static func calendarProblem(_ account: String, _ problem: String) -> RPCError {
        RPCError(code: 1212, message: "CalDAV account '\(account)': \(problem)", data: ["account": .string(account)])
    }
}
