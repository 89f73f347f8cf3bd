import PluginKit

/// The JSON Schemas of the Stag plugin's results. STAG leaves out what it does not know, so most
/// fields it supplies may be null; what this plugin computes (states, counts) is always there.
enum StagSchemas {
    static let text = JSONSchema.string.nullable
    static let number = JSONSchema.integer.nullable
    static let clock = JSONSchema.string.nullable.described("HH:MM")
    static let localTime = JSONSchema.string.nullable.described("YYYY-MM-DDTHH:MM, the university's wall clock")
    static let examState = JSONSchema.enumeration(ExamState.self)

    static let role = JSONSchema.object([
        "user_name": .string, "role": JSONSchema.string.described("ST student, VY teacher, …"), "role_name": text, "faculty": text,
        "department": text, "osCislo": text.described("student number"), "ucitIdno": number.described("teacher id"),
    ])
    static let account = JSONSchema.object([
        "account": .string, "university": text, "base_url": text, "name": text, "email": text, "roles": .array(role),
        "logged_in": .boolean, "state": .enumeration(Accounts.State.self), "detail": text, "default": .boolean,
    ])
    static let oneAccount = JSONSchema.object(["account": account])
    static let accounts = JSONSchema.object(["accounts": .array(account)])
    static let status = JSONSchema.object([
        "accounts": .array(
            account.adding([
                "last_refresh": JSONSchema.dateTime.nullable, "login?": JSONSchema.string.described("a browser login under way or failed"),
            ]))
    ])
    static let loginOutcome = JSONSchema.object([
        "account": .string, "logged_in": .boolean, "state": .enumeration(["logged_in", "failed", "waiting"]), "detail?": .string,
        "roles?": .array(role),
    ])
    static let accountName = JSONSchema.object(["account": .string])
    static let removed = JSONSchema.object(["removed": .string])

    static let event = JSONSchema.object([
        "date": .date, "start": clock, "end": clock, "subject": text.described("KAT/CODE"), "name": text,
        "type": text.described("Př, Cv, Se, …, or exam"), "room": text.described("BUILDING-ROOM"), "teachers": .array(.string),
        "week_parity": JSONSchema.enumeration(["every", "odd", "even"]).nullable, "note": text,
        "role": JSONSchema.enumeration(["student", "teacher", "room"]).described("whose timetable it came from"), "action_id": number,
        "term_id": number.described("an exam's term"),
    ])
    static let timetable = ReadCache.schema(.object(["events": .array(event)]))
    static let timetablePicture = JSONSchema.object([
        "path": .string, "format": .enumeration(["pdf", "png"]), "bytes": .integer, "week": JSONSchema.date.described("its Monday"),
        "classes": .integer,
    ])

    static let term = JSONSchema.object([
        "term_id": .integer, "subject": JSONSchema.string.described("KAT/CODE"), "name": text, "kind": text, "date": JSONSchema.date.nullable,
        "start": clock, "end": clock, "room": text, "examiner": text, "occupied": .integer, "limit": number, "state": examState,
        "reason": text.described("why it cannot be changed"), "register_deadline": localTime, "unregister_deadline": localTime, "note": text,
    ])
    static let exams = ReadCache.schema(.object(["terms": .array(term)]))
    static let examTerm = ReadCache.schema(term)

    static let grade = JSONSchema.object([
        "subject": .string, "name": text, "credits": number, "year": number, "semester": text,
        "grade": JSONSchema.anyOf([.number, .string, .null]).described("1–4 (1.5, 2.5 where used), A–F, or S/N for a credit"),
        "passed": .boolean, "date": JSONSchema.date.nullable, "attempt": number, "examiner": text,
        "kind": .enumeration(["exam", "credit"]),
    ])
    static let grades = ReadCache.schema(.object(["grades": .array(grade)]))
    static let summary = JSONSchema.object([
        "credits_enrolled": .integer, "credits_obtained": .integer, "subjects_enrolled": .integer, "subjects_passed": .integer,
        "weighted_average": JSONSchema.number.nullable.described("over passed numeric grades, weighted by credits"),
    ])
    static let results = ReadCache.schema(
        .object([
            "terms": .array(summary.adding(["year": number, "semester": text])),
            "total": summary.adding(["weighted_average_all": JSONSchema.number.nullable.described("with the failed 4s")]),
        ]))

    static let hours = JSONSchema.object(["count": .integer, "unit": text]).nullable
    static let subject = ReadCache.schema(
        .object([
            "subject": .string, "name": text, "long_name": text, "year": number, "credits": number, "guarantors": .array(.string),
            "lecturers": .array(.string), "tutors": .array(.string), "seminar_tutors": .array(.string), "examiners": .array(.string),
            "exam_type": text, "exam_form": text, "credit_before_exam": JSONSchema.boolean.nullable,
            "taught_winter": JSONSchema.boolean.nullable, "taught_summer": JSONSchema.boolean.nullable, "languages": text,
            "annotation": text, "requirements": text, "contents": text, "prerequisites": text, "literature": text,
            "required_subjects": text, "excluded_subjects": text,
            "hours": .object(["lectures": hours, "exercises": hours, "seminars": hours]), "url": text,
            "aims": text.described("what the student is able to do afterwards (ziskaneZpusobilosti)"), "teaching_methods": text,
            "assessment_methods": text, "workload": text,
        ]))
    static let teacher = ReadCache.schema(
        .object([
            "id": .integer, "name": text, "first_name": text, "last_name": text, "title_before": text, "title_after": text,
            "department": text, "email": text, "phone": text, "phone2": text, "url": text, "office": text,
        ]))
    static let student = ReadCache.schema(
        .object([
            "id": .string, "name": text, "user_name": text,
            "status": JSONSchema.string.nullable.described("studying, not_studying, interrupted, or STAG's code"), "programme": text,
            "programme_code": text, "faculty": text,
            "form": JSONSchema.string.nullable.described("full_time, combined, distance, or STAG's code"), "year_of_study": number,
            "email": text, "study_officer": JSONSchema.object(["name": text, "email": text, "phone": text]).nullable,
        ]))
    static let calendar = ReadCache.schema(
        .object([
            "year": .integer, "items": .array(.object(["from": JSONSchema.date.nullable, "to": JSONSchema.date.nullable, "description": text])),
        ]))
    static let exported = JSONSchema.object(["path": .string, "events": .integer])
    static let meal = JSONSchema.object([
        "number": number, "name": text, "allergens": .array(.object(["number": number, "name": text])),
        "prices": .array(.object(["type": text, "price": JSONSchema.number.nullable])),
    ])
    static let canteen = ReadCache.schema(
        .object([
            "canteen": .string, "day": .integer, "soups": .array(meal), "main_courses": .array(meal),
        ]))
    static let students = ReadCache.schema(
        .object([
            "students": .array(
                .object([
                    "id": text, "name": text, "first_name": text, "last_name": text, "faculty": text, "programme": text, "year_of_study": number,
                    "email": text.described("when STAG gives it"),
                ]))
        ]))
    static let teacherExams = ReadCache.schema(
        .object([
            "terms": .array(
                .object([
                    "term_id": .integer, "subject": JSONSchema.string.described("KAT/CODE"), "name": text, "kind": text,
                    "date": JSONSchema.date.nullable, "start": clock, "end": clock, "room": text, "examiner": text,
                    "registered": JSONSchema.integer.described("how many students are registered (STAG lists no names)"), "limit": number,
                    "free": number.described("seats left; null without a limit"), "register_deadline": localTime, "note": text,
                ])),
            "truncated": JSONSchema.boolean.described("the teacher has more than 30 subjects; name one with subject"),
        ]))
    static let studentsMail = JSONSchema.object([
        "dry_run": .boolean, "action_id": .integer, "to": JSONSchema.string.described("the visible recipient"),
        "bcc": JSONSchema.array(.string).described("the students' addresses, each unseen by the others"),
        "without_email": JSONSchema.array(.string).described("students STAG has no e-mail for"), "subject": .string,
        "sent?": JSONSchema.integer.described("how many were mailed (not on a dry run)"),
    ])
    static let teachersFound = ReadCache.schema(
        .object([
            "teachers": .array(.object(["teacher_id": number, "name": text, "department": text, "email": text]))
        ]))
    static let rooms = ReadCache.schema(
        .object([
            "rooms": .array(
                .object([
                    "building": .string, "room": .string, "name": JSONSchema.string.described("BUILDING-ROOM"), "type": text, "capacity": number,
                    "floor": text, "department": text, "address": text,
                ])),
            "truncated": JSONSchema.boolean.described("more rooms matched than limit"),
        ]))
    static let roomTimetable = ReadCache.schema(.object(["building": .string, "room": .string, "events": .array(event)]))
    static let subjectsFound = ReadCache.schema(
        .object([
            "subjects": .array(
                .object([
                    "subject": JSONSchema.string.described("KAT/CODE"), "department": .string, "code": .string, "name": text, "year": number,
                    "credits": number, "semester": JSONSchema.enumeration(["ZS", "LS", "both"]).nullable.described("when it is taught"),
                    "completion": text.described("STAG's exam type, e.g. Zkouška, Zápočet"),
                ])),
            "truncated": JSONSchema.boolean.described("more subjects matched than limit"),
        ]))
    static let theses = ReadCache.schema(
        .object([
            "theses": .array(
                .object([
                    "title": text, "student": JSONSchema.object(["id": text, "name": text]).nullable,
                    "assigned": JSONSchema.date.nullable, "planned_submission": JSONSchema.date.nullable, "type": text,
                    "department": text, "faculty": text, "supervisor": text, "opponent": text,
                ]))
        ]))
}
