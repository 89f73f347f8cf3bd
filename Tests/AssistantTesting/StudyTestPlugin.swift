import Foundation
import HostCore

/// A small study system for the kit's `StudyAlerts`: its exams come in the call (`id`,
/// `registered`, `free`, `day`, `leave_by`), and each command runs one alert.
public struct StudyPlugin: AssistantPlugin {
    public init() {}

    public enum Topic: String, PluginTopic {
        case deadline = "study.exam.deadline"
        case tomorrow = "study.exam.tomorrow"
        case seatFreed = "study.exam.seat_freed"
        public var summary: String { rawValue }
    }

    struct Exam: StudyExam {
        var examID: String
        var isRegistered: Bool
        var hasFreeSeat: Bool
        var day: DateOnly?
        var leaveBy: String?
        func leaveDeadline(in zone: TimeZone) -> Date? { leaveBy.flatMap { DateOnly.instant($0, in: zone) } }

        init(_ json: JSONValue) {
            examID = json["id"]?.stringValue ?? "?"
            isRegistered = json["registered"]?.boolValue ?? false
            hasFreeSeat = json["free"]?.boolValue ?? false
            day = json["day"]?.stringValue.flatMap(DateOnly.init)
            leaveBy = json["leave_by"]?.stringValue
        }
    }

    public var info: PluginInfo { PluginInfo(id: "study", version: "1", summary: "study alerts", topics: Topic.self) }

    static let exams = Param<[JSONValue]>("exams", help: "the exams")
    static let exam = Param<JSONValue>("exam", help: "one exam")
    static let day = Param<String>("day", help: "the evening's next day")
    static let wasFull = Param<Bool>("was_full", help: "full when last read")
    static let register = Param<String>("register", .oneOf(["no", "works", "fails"]), help: "register at once, and how that goes")

    func alerts(_ context: PluginContext) -> StudyAlerts<Exam, Topic> {
        StudyAlerts(
            context: context, zone: TimeZone(identifier: "Europe/Prague")!, deadlineTopic: .deadline, tomorrowTopic: .tomorrow,
            seatFreedTopic: .seatFreed,
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
            })
    }

    public var commands: [PluginCommand<PluginContext>] {
        [
            PluginCommand("deadlines", "last chances", params: [Self.exams], result: .any("the ids noticed")) { context, p, _ in
                let noticed = try await alerts(context).postDeadlines(account: "main", (p[Self.exams] ?? []).map(Exam.init))
                return .array(noticed.map { .string($0.examID) })
            },
            PluginCommand("tomorrow", "the evening", params: [Self.exams, Self.day], result: .any("the ids noticed")) { context, p, _ in
                guard let day = p[Self.day].flatMap(DateOnly.init) else { throw RPCError.invalidParam("day", "is not a date") }
                let noticed = try await alerts(context).postTomorrow(account: "main", (p[Self.exams] ?? []).map(Exam.init), day: day)
                return .array(noticed.map { .string($0.examID) })
            },
            PluginCommand(
                "seat", "a watched exam read again", params: [Self.exam, Self.wasFull, Self.register], result: .any("freed and registered")
            ) { context, p, _ in
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
        ]
    }

    public func setup(_ context: PluginContext) async throws -> PluginSetup<PluginContext> { .ready(context) }
}
