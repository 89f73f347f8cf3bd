import Foundation
import PluginKit
import StudyKit

extension ExamTerm: StudyExam {
    var examID: String { String(termID) }
    var isRegistered: Bool { state == .registered }
    var hasFreeSeat: Bool { state == .available }
    var subjectKey: String { subject }
    func leaveDeadline(in zone: TimeZone) -> Date? { unregisterDeadline.flatMap { DateOnly.instant($0, in: zone) } }
    func signupDeadline(in zone: TimeZone) -> Date? { registerDeadline.flatMap { DateOnly.instant($0, in: zone) } }
}

/// How STAG's exam alerts read (the kit's `StudyAlerts` decides when each is sent).
extension StagService {
    var alerts: StudyAlerts<ExamTerm, StagTopic> {
        StudyAlerts(
            context: context, zone: zone, deadlineTopic: .examDeadline, tomorrowTopic: .examTomorrow, seatFreedTopic: .examSeatFreed,
            signupClosingTopic: .examSignupClosing,
            deadline: { account, term in
                let text = term.unregisterDeadline ?? ""
                return .init(
                    title: "Last chance to unregister: \(term.title)",
                    body: "Unregistering from the \(term.when) term closes at \(text.replacingOccurrences(of: "T", with: " ")).",
                    dedupeKey: "stag.exam.deadline:\(account):\(term.termID):\(text)")
            },
            tomorrow: { account, term in
                .init(
                    title: "Exam tomorrow: \(term.title)",
                    body: "\(term.when)\(term.inRoom)\(term.examiner.map { ", \($0)" } ?? "")\(term.note.map { ". \($0)" } ?? "")",
                    dedupeKey: "stag.exam.tomorrow:\(account):\(term.termID):\(term.date ?? "")")
            },
            seatFreed: { account, term, freed, registration in
                var body = "\(term.when)\(term.inRoom): \(term.seats)."
                var severity = Severity.info
                switch registration {
                case .notAsked: body += " Register: assistantctl stag.exams.register term_id=\(term.termID)"
                case .registered: body += " Registered for you."
                case .failed(let error):
                    body += " Registering failed: \(error.message)"
                    severity = .warning
                }
                return .init(
                    title: "A seat is free: \(term.title)", body: body, severity: severity,
                    dedupeKey: "stag.exam.seat_freed:\(account):\(term.termID):\(freed)")
            },
            signupClosing: { account, term, _ in
                let closes = (term.registerDeadline ?? "").replacingOccurrences(of: "T", with: " ")
                return .init(
                    title: "Sign-up closes soon: \(term.title)",
                    body: "Registering for the \(term.when) term\(term.inRoom) closes at \(closes) (\(term.seats)). "
                        + "Register: assistantctl stag.exams.register term_id=\(term.termID)",
                    dedupeKey: "stag.exam.signup_closing:\(account):\(term.termID):\(term.registerDeadline ?? "")")
            })
    }
}
