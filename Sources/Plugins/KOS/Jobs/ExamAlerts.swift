import Foundation
import PluginKit
import StudyKit

extension KOSExam: StudyExam {
    var examID: String { id }
    var isRegistered: Bool { registered }
    /// KOSapi says nothing of whether sign-in is open: a seat is free when it is not full.
    var hasFreeSeat: Bool { !full }
    var day: DateOnly? { DateOnly(String(start.prefix(10))) }
    var subjectKey: String { course ?? id }
    func leaveDeadline(in zone: TimeZone) -> Date? { cancelDeadline.flatMap { KOSService.deadline($0, in: zone) } }
    /// KOSapi's `signinDeadline`, the last day to sign up (the issue named `cancelDeadline`,
    /// which is the last day to leave: that one has `kos.exam.deadline`).
    func signupDeadline(in zone: TimeZone) -> Date? { signinDeadline.flatMap { KOSService.deadline($0, in: zone) } }
}

/// How KOS's exam alerts read (the kit's `StudyAlerts` decides when each is sent). Registering
/// stays in the browser (KOSapi is read-only), so the notices link to KOS.
extension KOSService {
    var alerts: StudyAlerts<KOSExam, KOSTopic> {
        let kos = context.config[KOSConfig.kosURL]
        return StudyAlerts(
            context: context, zone: Self.zone, deadlineTopic: .examDeadline, tomorrowTopic: .examTomorrow, seatFreedTopic: .examSeatFreed,
            signupClosingTopic: .examSignupClosing,
            deadline: { username, exam in
                let text = exam.cancelDeadline ?? ""
                let closes = text.contains("T") ? "at \(text.prefix(16).replacingOccurrences(of: "T", with: " "))" : "at the end of \(text)"
                return .init(
                    title: "Last chance to cancel: \(exam.courseName) on \(exam.when)",
                    body: "Cancelling the \(exam.when) exam closes \(closes). KOS: \(kos)",
                    dedupeKey: "kos.exam.deadline:\(username):\(exam.id):\(text)", link: kos)
            },
            tomorrow: { username, exam in
                .init(
                    title: "Exam tomorrow: \(exam.courseName)", body: "\(exam.when)\(exam.inRoom)\(exam.examiners.first.map { ", \($0)" } ?? "")",
                    dedupeKey: "kos.exam.tomorrow:\(username):\(exam.id):\(exam.start.prefix(10))")
            },
            seatFreed: { _, exam, freed, _ in
                .init(
                    title: "A seat is free: \(exam.courseName) on \(exam.when)",
                    body: "\(exam.when)\(exam.inRoom): \(exam.seats). Register in KOS: \(kos)",
                    dedupeKey: "kos.exam.seat_freed:\(exam.id):\(freed)", link: kos)
            },
            signupClosing: { username, exam, _ in
                let text = exam.signinDeadline ?? ""
                let closes = text.contains("T") ? "at \(text.prefix(16).replacingOccurrences(of: "T", with: " "))" : "at the end of \(text)"
                return .init(
                    title: "Sign-up closes soon: \(exam.courseName) on \(exam.when)",
                    body:
                        "Signing up for the \(exam.when) \(exam.kind.rawValue)\(exam.inRoom) closes \(closes) (\(exam.seats)). "
                        + "Register in KOS: \(kos)",
                    dedupeKey: "kos.exam.signup_closing:\(username):\(exam.id):\(text)", link: kos)
            })
    }
}
