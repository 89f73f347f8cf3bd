import Foundation
import PluginKit

/// An exam in a study system (an IS/STAG term, a KOS exam date), as the kit's study alerts read
/// it. Each study plugin decodes its upstream's exams into its own type and conforms it here.
public protocol StudyExam: Sendable {
    /// The exam's id upstream (a term id, an exam id).
    var examID: String { get }
    var isRegistered: Bool { get }
    /// A student could register now: a seat is free (and, where the system says, registration
    /// is open).
    var hasFreeSeat: Bool { get }
    /// The day it takes place, in the study system's zone.
    var day: DateOnly? { get }
    /// The subject or course it is an exam of: a student registered for one exam of it needs no
    /// warning that another's sign-up closes.
    var subjectKey: String { get }
    /// The last moment to sign up, when the system says; wall times read in `zone`.
    func signupDeadline(in zone: TimeZone) -> Date?
    /// The last moment a registered student may leave it (unregister, cancel), when the system
    /// says; its wall times are read in `zone`, the study system's.
    func leaveDeadline(in zone: TimeZone) -> Date?
}

/// The alerts every study system gives about exams, decided once here and worded by the plugin:
/// the last chance to leave a registered exam (within a day of its deadline), the evening before
/// a registered exam, a sign-up that closes soon on a subject the student has no exam of yet, and
/// a seat that frees on a watched full exam (with registering for it at once when the student
/// asked for that). A sixth study system conforms its exam type to
/// `StudyExam`, says how each notice reads, and calls these from its refresh, evening and watch
/// jobs. The plugin's dedupe keys keep a notice from being sent twice, across restarts too.
public struct StudyAlerts<Exam: StudyExam, Topic: PluginTopic>: Sendable {
    /// A notice as the plugin words it.
    public struct Notice: Sendable {
        public var title: String
        public var body: String
        public var severity: Severity?
        public var dedupeKey: String
        /// Where the exam is dealt with (the study system's page).
        public var link: String?

        public init(title: String, body: String, severity: Severity? = nil, dedupeKey: String, link: String? = nil) {
            self.link = link
            self.title = title
            self.body = body
            self.severity = severity
            self.dedupeKey = dedupeKey
        }
    }

    /// What became of registering for a freed seat, for the notice.
    public enum Registration: Sendable {
        /// The student did not ask for it (the notice says how to register).
        case notAsked
        case registered
        case failed(RPCError)
    }

    let notifier: PluginNotifier
    let clock: any HostClock
    let zone: TimeZone
    public var deadlineTopic: Topic
    public var tomorrowTopic: Topic
    public var seatFreedTopic: Topic
    public var signupClosingTopic: Topic
    /// (account, exam) → the notice.
    public var deadline: @Sendable (String, Exam) -> Notice
    public var tomorrow: @Sendable (String, Exam) -> Notice
    /// (account, exam, how many times a seat has freed, registration) → the notice.
    public var seatFreed: @Sendable (String, Exam, Int64, Registration) -> Notice
    /// (account, exam, its sign-up deadline) → the notice.
    public var signupClosing: @Sendable (String, Exam, Date) -> Notice

    public init(
        context: PluginContext, zone: TimeZone, deadlineTopic: Topic, tomorrowTopic: Topic, seatFreedTopic: Topic, signupClosingTopic: Topic,
        deadline: @escaping @Sendable (String, Exam) -> Notice, tomorrow: @escaping @Sendable (String, Exam) -> Notice,
        seatFreed: @escaping @Sendable (String, Exam, Int64, Registration) -> Notice,
        signupClosing: @escaping @Sendable (String, Exam, Date) -> Notice
    ) {
        notifier = context.notifier
        clock = context.clock
        self.zone = zone
        self.deadlineTopic = deadlineTopic
        self.tomorrowTopic = tomorrowTopic
        self.seatFreedTopic = seatFreedTopic
        self.signupClosingTopic = signupClosingTopic
        self.deadline = deadline
        self.tomorrow = tomorrow
        self.seatFreed = seatFreed
        self.signupClosing = signupClosing
    }

    /// How long before its deadline a registered exam gets its last-chance notice.
    public static var deadlineWindow: TimeInterval { 86_400 }

    /// The last chance to leave each registered exam whose deadline is still ahead and within a
    /// day. Returns the exams noticed (a notice already sent is not sent again).
    @discardableResult
    public func postDeadlines(account: String, _ exams: [Exam]) async throws -> [Exam] {
        let now = clock.now
        let due = exams.filter { exam in
            guard exam.isRegistered, let deadline = exam.leaveDeadline(in: zone) else { return false }
            return deadline > now && deadline.timeIntervalSince(now) <= Self.deadlineWindow
        }
        for exam in due { try await post(deadlineTopic, deadline(account, exam)) }
        return due
    }

    /// Each exam with a free seat whose sign-up closes within `hours` (still ahead), of a subject
    /// the student has no registered exam of: the last chance to sign up at all. Zero hours
    /// turns it off. Returns the exams noticed (a notice already sent is not sent again).
    @discardableResult
    public func postSignupClosing(account: String, _ exams: [Exam], within hours: Int64) async throws -> [Exam] {
        guard hours > 0 else { return [] }
        let now = clock.now
        let covered = Set(exams.filter(\.isRegistered).map(\.subjectKey))
        var due: [(Exam, Date)] = []
        for exam in exams where !exam.isRegistered && exam.hasFreeSeat && !covered.contains(exam.subjectKey) {
            guard let deadline = exam.signupDeadline(in: zone), deadline > now, deadline.timeIntervalSince(now) <= Double(hours) * 3600 else {
                continue
            }
            due.append((exam, deadline))
        }
        for (exam, deadline) in due { try await post(signupClosingTopic, signupClosing(account, exam, deadline)) }
        return due.map(\.0)
    }

    /// Each registered exam on `day` (the evening job passes tomorrow).
    @discardableResult
    public func postTomorrow(account: String, _ exams: [Exam], day: DateOnly) async throws -> [Exam] {
        let due = exams.filter { $0.isRegistered && $0.day == day }
        for exam in due { try await post(tomorrowTopic, tomorrow(account, exam)) }
        return due
    }

    /// A watched exam read again: when it was full and a seat is free now, a seat has freed;
    /// with `register` (the student asked for it) the kit registers at once and the notice says
    /// how that went. Returns what the watch keeps: the freed count, and whether the student is
    /// registered now.
    public func checkSeat(
        account: String, _ exam: Exam, wasFull: Bool, freed: Int64, register: (@Sendable () async throws -> Void)? = nil
    ) async throws -> (freed: Int64, registered: Bool) {
        guard wasFull, exam.hasFreeSeat, !exam.isRegistered else { return (freed, exam.isRegistered) }
        let count = freed + 1
        var outcome = Registration.notAsked
        if let register {
            do {
                try await register()
                outcome = .registered
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                // The system's refusal or an upstream failure: told in the notice either way.
                outcome = .failed(RPCError(sending: error))
            }
        }
        try await post(seatFreedTopic, seatFreed(account, exam, count, outcome))
        if case .registered = outcome { return (count, true) }
        return (count, false)
    }

    private func post(_ topic: Topic, _ notice: Notice) async throws {
        try await notifier.post(
            topic: topic, title: notice.title, body: notice.body, severity: notice.severity, dedupeKey: notice.dedupeKey, link: notice.link)
    }
}
