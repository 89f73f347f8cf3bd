import Foundation
import PluginKit

// Typed answers of the exam watch commands, written straight into the reply; their schemas
// are in KOSSchemas.

/// `kos.exams.watch`: the watch as saved, with the exam as `kos.exams` shows it.
struct KOSWatchSaved: Encodable, CallResult {
    struct Watch: Encodable, Sendable {
        let examID: String
        let full: Bool
        let exam: JSONValue

        enum CodingKeys: String, CodingKey {
            case full, exam
            case examID = "exam_id"
        }
    }

    let watch: Watch
}

/// A watch as `kos.exams.watches` lists it.
struct KOSWatchRow: Encodable, Sendable {
    let watch: ExamWatches.Watch

    enum CodingKeys: String, CodingKey {
        case course, start, full, since
        case examID = "exam_id"
        case seatsFreed = "seats_freed"
    }

    func encode(to encoder: any Encoder) throws {
        var o = encoder.container(keyedBy: CodingKeys.self)
        try o.encode(watch.item, forKey: .examID)
        try o.encode(watch.label, forKey: .course)
        try o.encode(watch.startsAt, forKey: .start)
        try o.encode(watch.lastState == "full", forKey: .full)
        try o.encode(watch.freed, forKey: .seatsFreed)
        try o.encode(watch.since, forKey: .since)
    }
}

struct KOSWatchList: Encodable, CallResult {
    let watches: [KOSWatchRow]
}

struct KOSUnwatched: Encodable, CallResult {
    let examID: String
    let watched = false

    enum CodingKeys: String, CodingKey {
        case watched
        case examID = "exam_id"
    }
}

// The answers of the study reads, cached as they are and answered with `stale` and `fetched_at`.

struct SlotsAnswer: Codable, Sendable {
    let slots: [KOSTimetableSlot]
}

struct KOSExamsAnswer: Codable, Sendable {
    let exams: [KOSExam]
}

struct CoursesAnswer: Codable, Sendable {
    let courses: [KOSEnrolment]
    let credits: Int64
}

struct EventsAnswer: Codable, Sendable {
    let events: [KOSCourseEvent]
}

/// `kos.results`: credits and courses per semester and in total.
struct ResultsAnswer: Codable, Sendable {
    struct Summary: Codable, Sendable {
        var semester: String?
        let creditsEnrolled: Int64
        let creditsObtained: Int64
        let coursesEnrolled: Int64
        let coursesCompleted: Int64

        enum CodingKeys: String, CodingKey {
            case semester
            case creditsEnrolled = "credits_enrolled"
            case creditsObtained = "credits_obtained"
            case coursesEnrolled = "courses_enrolled"
            case coursesCompleted = "courses_completed"
        }

        init(_ rows: [KOSEnrolment], semester: String? = nil) {
            let done = rows.filter(\.completed)
            self.semester = semester
            creditsEnrolled = rows.reduce(0) { $0 + ($1.credits ?? 0) }
            creditsObtained = done.reduce(0) { $0 + ($1.credits ?? 0) }
            coursesEnrolled = Int64(rows.count)
            coursesCompleted = Int64(done.count)
        }
    }

    let semesters: [Summary]
    let total: Summary
}
