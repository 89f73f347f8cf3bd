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
        let language = context.language
        return StudyAlerts(
            context: context, zone: zone, deadlineTopic: .examDeadline, tomorrowTopic: .examTomorrow, seatFreedTopic: .examSeatFreed,
            signupClosingTopic: .examSignupClosing,
            deadline: { account, term in
                let text = term.unregisterDeadline ?? ""
                return .init(
                    title: NoticeWords.lastChance.text(language, ["title": term.title]),
                    body: NoticeWords.lastChanceBody.text(language, ["when": term.when, "closes": text.replacingOccurrences(of: "T", with: " ")]),
                    dedupeKey: "stag.exam.deadline:\(account):\(term.termID):\(text)")
            },
            tomorrow: { account, term in
                .init(
                    title: NoticeWords.tomorrow.text(language, ["title": term.title]),
                    body: "\(term.when)\(term.inRoom(language))\(term.examiner.map { ", \($0)" } ?? "")\(term.note.map { ". \($0)" } ?? "")",
                    dedupeKey: "stag.exam.tomorrow:\(account):\(term.termID):\(term.date ?? "")")
            },
            seatFreed: { account, term, freed, registration in
                var body = "\(term.when)\(term.inRoom(language)): \(term.seats(language))."
                var severity = Severity.info
                switch registration {
                case .notAsked:
                    body += " " + NoticeWords.register.text(language, ["command": "assistantctl stag.exams.register term_id=\(term.termID)"])
                case .registered: body += " " + NoticeWords.registeredForYou.text(language)
                case .failed(let error):
                    body += " " + NoticeWords.registeringFailed.text(language, ["error": error.message])
                    severity = .warning
                }
                return .init(
                    title: NoticeWords.seatFree.text(language, ["title": term.title]), body: body, severity: severity,
                    dedupeKey: "stag.exam.seat_freed:\(account):\(term.termID):\(freed)")
            },
            signupClosing: { account, term, _ in
                let closes = (term.registerDeadline ?? "").replacingOccurrences(of: "T", with: " ")
                return .init(
                    title: NoticeWords.signupClosing.text(language, ["title": term.title]),
                    body: NoticeWords.signupClosingBody.text(
                        language, ["when": term.when, "room": term.inRoom(language), "closes": closes, "seats": term.seats(language)])
                        + " " + NoticeWords.register.text(language, ["command": "assistantctl stag.exams.register term_id=\(term.termID)"]),
                    dedupeKey: "stag.exam.signup_closing:\(account):\(term.termID):\(term.registerDeadline ?? "")")
            })
    }
}
