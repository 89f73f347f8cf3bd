import Foundation
import HostCore
import StudyKit

/// A small study system for the kit's `StudyAlerts` and `ClassReminders`: its exams come in the
/// call (`id`, `subject`, `registered`, `free`, `day`, `leave_by`, `signup_by`), and each command
/// runs one alert; its classes come in `study.classes`, and are reminded of
/// `class_reminder_min` before they begin.
public struct StudyPlugin: AssistantPlugin {
    public init() {}

    public enum Topic: String, PluginTopic {
        case deadline = "study.exam.deadline"
        case tomorrow = "study.exam.tomorrow"
        case seatFreed = "study.exam.seat_freed"
        case signupClosing = "study.exam.signup_closing"
        case classSoon = "study.class.soon"
        public var summary: String { rawValue }
    }

    struct Options: PluginOptions {
        let classReminderMin = StudyOptions.classReminderMin
        let signupWarningH = StudyOptions.signupWarningH
    }

    public struct Service: Sendable {
        let context: PluginContext
        let reminders: ClassReminders<Topic>
    }

    struct Exam: StudyExam {
        var examID: String
        var isRegistered: Bool
        var hasFreeSeat: Bool
        var day: DateOnly?
        var leaveBy: String?
        var subjectKey: String
        var signupBy: String?
        func leaveDeadline(in zone: TimeZone) -> Date? { leaveBy.flatMap { DateOnly.instant($0, in: zone) } }
        func signupDeadline(in zone: TimeZone) -> Date? { signupBy.flatMap { DateOnly.instant($0, in: zone) } }

        init(_ json: JSONValue) {
            examID = json["id"]?.stringValue ?? "?"
            isRegistered = json["registered"]?.boolValue ?? false
            hasFreeSeat = json["free"]?.boolValue ?? false
            day = json["day"]?.stringValue.flatMap(DateOnly.init)
            leaveBy = json["leave_by"]?.stringValue
            subjectKey = json["subject"]?.stringValue ?? examID
            signupBy = json["signup_by"]?.stringValue
        }
    }

    public var info: PluginInfo { PluginInfo(id: "study", version: "1", summary: "study alerts", topics: Topic.self, options: Options.self) }

    static let exams = Param<[JSONValue]>("exams", help: "the exams")
    static let exam = Param<JSONValue>("exam", help: "one exam")
    static let day = Param<String>("day", help: "the evening's next day")
    static let wasFull = Param<Bool>("was_full", help: "full when last read")
    static let register = Param<String>("register", .oneOf(["no", "works", "fails"]), help: "register at once, and how that goes")
    static let classes = Param<[JSONValue]>("classes", help: "the classes read, as StudyClass values")
    static let account = Param<String>("account", default: "main", help: "whose classes")

    func alerts(_ context: PluginContext) -> StudyAlerts<Exam, Topic> {
        StudyAlerts(
            context: context, zone: TimeZone(identifier: "Europe/Prague")!, deadlineTopic: .deadline, tomorrowTopic: .tomorrow,
            seatFreedTopic: .seatFreed, signupClosingTopic: .signupClosing,
            deadline: { account, exam in
                .init(title: "leave \(exam.examID)", body: "by \(exam.leaveBy ?? "")", dedupeKey: "d:\(account):\(exam.examID)")
            },
            tomorrow: { account, exam in .init(title: "tomorrow \(exam.examID)", body: "", dedupeKey: "t:\(account):\(exam.examID)") },
            seatFreed: { account, exam, freed, registration in
                let outcome: String
                switch registration {
                case .notAsked: outcome = "not asked"
                case .registered: outcome = "registered"
                case .failed(let error): outcome = "failed: \(error.message)"
                }
                return .init(title: "seat \(exam.examID) #\(freed)", body: outcome, dedupeKey: "s:\(account):\(exam.examID):\(freed)")
            },
            signupClosing: { account, exam, deadline in
                .init(title: "sign up \(exam.examID)", body: "by \(ISO8601.string(deadline))", dedupeKey: "c:\(account):\(exam.examID)")
            })
    }

    public var commands: [PluginCommand<Service>] {
        [
            PluginCommand("deadlines", "last chances", params: [Self.exams], result: .any("the ids noticed"), effect: .write) { service, p, _ in
                let context = service.context
                let noticed = try await alerts(context).postDeadlines(account: "main", (p[Self.exams] ?? []).map(Exam.init))
                return .array(noticed.map { .string($0.examID) })
            },
            PluginCommand("tomorrow", "the evening", params: [Self.exams, Self.day], result: .any("the ids noticed"), effect: .write) {
                service, p, _ in
                let context = service.context
                guard let day = p[Self.day].flatMap(DateOnly.init) else { throw RPCError.invalidParam("day", "is not a date") }
                let noticed = try await alerts(context).postTomorrow(account: "main", (p[Self.exams] ?? []).map(Exam.init), day: day)
                return .array(noticed.map { .string($0.examID) })
            },
            PluginCommand(
                "seat", "a watched exam read again", params: [Self.exam, Self.wasFull, Self.register], result: .any("freed and registered"),
                effect: .write
            ) { service, p, _ in
                let context = service.context
                let how = p[Self.register] ?? "no"
                let register: (@Sendable () async throws -> Void)? =
                    switch how {
                    case "works": {}
                    case "fails": { throw RPCError(code: 1501, message: "the term is closed") }
                    default: nil
                    }
                let seat = try await alerts(context).checkSeat(
                    account: "main", Exam(p[Self.exam] ?? .null), wasFull: p[Self.wasFull] ?? false, freed: 2, register: register)
                return ["freed": .int(seat.freed), "registered": .bool(seat.registered)]
            },
            PluginCommand("signup", "sign-ups closing", params: [Self.exams], result: .any("the ids noticed"), effect: .write) { service, p, _ in
                let noticed = try await alerts(service.context).postSignupClosing(
                    account: "main", (p[Self.exams] ?? []).map(Exam.init), within: service.context.config[StudyOptions.signupWarningH])
                return .array(noticed.map { .string($0.examID) })
            },
            PluginCommand("classes", "the classes read", params: [Self.classes, Self.account], result: .any("the keys armed"), effect: .write) {
                service, p, _ in
                let account = p[Self.account] ?? "main"
                try await service.reminders.arm(account: account, try (p[Self.classes] ?? []).map { try StudyClass(json: $0) })
                return .array(await service.reminders.armedKeys(account: account).map(JSONValue.string))
            },
            PluginCommand("armed", "the reminders armed", params: [Self.account], result: .any("the keys armed"), effect: .write) { service, p, _ in
                .array(await service.reminders.armedKeys(account: p[Self.account] ?? "main").map(JSONValue.string))
            },
        ]
    }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<Service> {
        let reminders = ClassReminders(
            context: context, zone: TimeZone(identifier: "Europe/Prague")!, topic: Topic.classSoon,
            minutesBefore: { context.config[StudyOptions.classReminderMin] })
        try await reminders.restore()
        return .ready(Service(context: context, reminders: reminders))
    }
}
