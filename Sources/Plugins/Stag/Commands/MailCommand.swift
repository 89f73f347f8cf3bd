import Foundation
import PluginKit

/// `stag.students.mail`: a teacher's message to the students of a timetable action, through the
/// host's mail. The students go in Bcc, so none sees the others' addresses; the visible
/// recipient is the teacher. By default it only lists who would get it (`dry_run`): sending acts
/// on the outside world and cannot be taken back.
extension StagService {
    static let maxSubject = 200
    static let maxBody = 20_000

    func studentsMail(_ params: Params) async throws -> StudentsMailed {
        let action = try params[StagParams.actionID]
        let subject = try params[StagParams.mailSubject].trimmingCharacters(in: .whitespacesAndNewlines)
        let body = try params[StagParams.mailBody]
        let dryRun = params[StagParams.dryRun]
        guard !subject.isEmpty, subject.count <= Self.maxSubject, !subject.contains(where: \.isNewline) else {
            throw StagParams.subject.invalid("must be one line of 1 to \(Self.maxSubject) characters")
        }
        guard !body.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, body.count <= Self.maxBody else {
            throw StagParams.mailBody.invalid("must be 1 to \(Self.maxBody) characters")
        }
        if let to = params[StagParams.mailTo], !Self.isMailAddress(to) {
            throw StagParams.to.invalid("must be one mail address such as jan.novak@example.org, got '\(to)'")
        }
        if !dryRun, !(await context.notifier.mailConfigured) {
            throw StagParams.dryRun.invalid("sending needs mail: set [notify.mail] in the config (a dry run lists the recipients)")
        }
        let session = try await session(params[StagParams.account])
        let teacher = try session.teacher()
        let rows = try await actionStudents(session, teacher, action: action)
        let students = Self.czechSorted(rows.map(ActionStudent.init)) { [$0.lastName, $0.firstName] }
        var addresses: [String] = []
        var without: [String] = []
        for student in students {
            if let email = student.email, Self.isMailAddress(email) {
                if !addresses.contains(email) { addresses.append(email) }
            } else {
                without.append(student.name ?? student.id ?? "a student STAG gives no name for")
            }
        }
        guard !students.isEmpty else { throw StagParams.actionID.invalid("action \(action) has no students in STAG") }
        let to: String
        if let given = params[StagParams.mailTo] { to = given } else { to = try await teacherAddress(session, teacher) }
        var result = StudentsMailed(dryRun: dryRun, actionID: action, to: to, bcc: addresses, withoutEmail: without, subject: subject)
        guard !dryRun else { return result }
        guard !addresses.isEmpty else { throw StagParams.actionID.invalid("none of the action's students has an e-mail in STAG") }
        try await context.notifier.mail(to: to, bcc: addresses, title: subject, body: body, topic: StagTopic.studentsMailed)
        result.sent = Int64(addresses.count)
        return result
    }

    /// The teacher's own address in STAG (`ucitel/getUcitelInfo`), the mail's visible recipient.
    func teacherAddress(_ session: StagSession, _ teacher: StagRole) async throws -> String {
        let info = try await session.client.read("ucitel/getUcitelInfo", [("ucitIdno", String(teacher.teacherID ?? 0))])
        guard let email = JSONTreeDecoder.row(info, as: StagRow.Teacher.self)?.email, Self.isMailAddress(email) else {
            throw StagParams.to.invalid("STAG has no e-mail for you: give to=your.address@example.org")
        }
        return email
    }

    static func isMailAddress(_ text: String) -> Bool { MailAddress.isInternetAddress(text) }
}
