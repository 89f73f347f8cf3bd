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
        let language = context.language
        return StudyAlerts(
            context: context, zone: Self.zone, deadlineTopic: .examDeadline, tomorrowTopic: .examTomorrow, seatFreedTopic: .examSeatFreed,
            signupClosingTopic: .examSignupClosing,
            deadline: { username, exam in
                let text = exam.cancelDeadline ?? ""
                return .init(
                    title: NoticeWords.lastChance.text(language, ["course": exam.courseName, "when": exam.when]),
                    body: NoticeWords.lastChanceBody.text(
                        language, ["when": exam.when, "closes": NoticeWords.closes(text, language), "url": kos]),
                    dedupeKey: "kos.exam.deadline:\(username):\(exam.id):\(text)", link: kos)
            },
            tomorrow: { username, exam in
                .init(
                    title: NoticeWords.tomorrow.text(language, ["course": exam.courseName]),
                    body: "\(exam.when)\(exam.inRoom(language))\(exam.examiners.first.map { ", \($0)" } ?? "")",
                    dedupeKey: "kos.exam.tomorrow:\(username):\(exam.id):\(exam.start.prefix(10))")
            },
            seatFreed: { _, exam, freed, _ in
                .init(
                    title: NoticeWords.seatFree.text(language, ["course": exam.courseName, "when": exam.when]),
                    body: "\(exam.when)\(exam.inRoom(language)): \(exam.seats(language)). " + NoticeWords.registerInKOS.text(language, ["url": kos]),
                    dedupeKey: "kos.exam.seat_freed:\(exam.id):\(freed)", link: kos)
            },
            signupClosing: { username, exam, _ in
                let text = exam.signinDeadline ?? ""
                return .init(
                    title: NoticeWords.signupClosing.text(language, ["course": exam.courseName, "when": exam.when]),
                    body: NoticeWords.signupClosingBody.text(
                        language,
                        [
                            "when": exam.when, "kind": NoticeWords.kind(exam.kind).text(language), "room": exam.inRoom(language),
                            "closes": NoticeWords.closes(text, language), "seats": exam.seats(language),
                        ]) + " " + NoticeWords.registerInKOS.text(language, ["url": kos]),
                    dedupeKey: "kos.exam.signup_closing:\(username):\(exam.id):\(text)", link: kos)
            })
    }
}
