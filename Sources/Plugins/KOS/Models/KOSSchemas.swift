import PluginKit

/// The JSON Schemas of the KOS plugin's results. KOSapi's Atom entries leave out what they do not
/// know, so what comes from an entry may be null; what this plugin computes is always there.
enum KOSSchemas {
    static let text = JSONSchema.string.nullable
    static let number = JSONSchema.integer.nullable

    static let status = JSONSchema.object([
        "set_up": .boolean, "logged_in": .boolean, "client_id?": .string, "api_url?": .string, "username?": text,
        "expires_at?": JSONSchema.dateTime.nullable,
        "state?": JSONSchema.enumeration(["ready", "needs_reauth", "failed", "logged_out"]), "detail?": text,
        "accounts?": .array(Accounts.accountSchema(settings: ["expires_at": .dateTime])),
    ])
    /// The status once the login is done; else where it stands.
    static let loginOutcome = JSONSchema.anyOf([
        status, .object(["logged_in": .boolean, "state": .enumeration(["waiting", "failed"]), "detail?": .string]),
    ])

    static let semester = ReadCache.schema(.object(["code": .string, "name": text, "start": .date, "end": .date]))
    static let slot = JSONSchema.object([
        "day": number.described("1 = Monday"), "start": JSONSchema.string.nullable.described("HH:MM"),
        "end": JSONSchema.string.nullable.described("HH:MM"), "course": text, "course_name": text, "kind": text, "parallel": text,
        "parity": .enumeration(["both", "odd", "even"]), "room": text, "teachers": .array(.string), "weeks": text,
    ])
    static let timetable = ReadCache.schema(.object(["slots": .array(slot)]))
    static let course = JSONSchema.object([
        "code": text, "name": text, "credits": number, "completion": text, "completed": .boolean, "assessment": .boolean, "semester": text,
        "external": JSONSchema.boolean.described("enrolled at another faculty or school"),
    ])
    static let courses = ReadCache.schema(.object(["courses": .array(course), "credits": .integer]))
    static let summary = JSONSchema.object([
        "credits_enrolled": .integer, "credits_obtained": .integer, "courses_enrolled": .integer, "courses_completed": .integer,
    ])
    static let results = ReadCache.schema(.object(["semesters": .array(summary.adding(["semester": .string])), "total": summary]))
    static let studyPlan = ReadCache.schema(
        .object([
            "study_plan": .object(["code": .string, "name": text]),
            "groups": .array(
                .object([
                    "code": .string, "name": text,
                    "role": JSONSchema.string.described("compulsory (Z), elective (PV: some of them), optional (V), or KOS's own letter"),
                    "credits_required": number, "credits_obtained": .integer, "credits_short": .integer, "courses_required": number,
                    "courses_completed": .integer, "missing": JSONSchema.array(.string).described("compulsory courses not completed"),
                ])),
            "complete": JSONSchema.boolean.described("every group has what it asks for"),
        ]))
    static let available = ReadCache.schema(
        .object([
            "semester": .string,
            "courses": .array(.object(["code": .string, "name": text, "credits": number, "group": .string, "role": .string])),
            "truncated": JSONSchema.boolean.described("the plan has more than 100 courses not completed; the first 100 were asked about"),
        ]))
    static let coursesFound = ReadCache.schema(
        .object([
            "courses": .array(.object(["code": .string, "name": text, "credits": number, "completion": text, "season": text]))
        ]))
    static let parallels = ReadCache.schema(
        .object([
            "code": .string, "semester": .string,
            "parallels": .array(
                .object([
                    "parallel": text, "kind": text, "teachers": .array(.string), "capacity": number, "occupied": number,
                    "free": number.described("seats left; null without a capacity"),
                    "slots": .array(
                        .object([
                            "day": number.described("1 = Monday"), "start": JSONSchema.string.nullable.described("HH:MM"),
                            "end": JSONSchema.string.nullable.described("HH:MM"), "parity": .enumeration(KOSTimetableSlot.Parity.self), "room": text,
                            "weeks": text,
                        ])),
                ])),
        ]))
    static let teacherTimetable = ReadCache.schema(
        .object([
            "username": .string, "semester": .string,
            "slots": .array(
                .object([
                    "day": number.described("1 = Monday"), "start": JSONSchema.string.nullable.described("HH:MM"),
                    "end": JSONSchema.string.nullable.described("HH:MM"), "parity": .enumeration(KOSTimetableSlot.Parity.self), "title": text,
                    "weeks": text,
                ])),
        ]))
    static let room = ReadCache.schema(
        .object([
            "code": .string, "name": text, "locality": text, "type": text,
            "capacity": JSONSchema.map(.integer).described("seats by purpose, as KOSapi lists them (for=…)"),
        ]))
    static let courseDetail = ReadCache.schema(
        .object([
            "code": .string, "name": text, "credits": number, "completion": text, "season": text, "range": text, "programme_type": text,
            "annotation": text,
            "details": .object(["lectures": text, "tutorials": text, "requirements": text, "literature": text, "objectives": text]),
        ]))
    static let exams = ReadCache.schema(.object(["exams": .array(KOSExam.resultSchema)]))
    static let events = ReadCache.schema(
        .object([
            "events": .array(
                .object([
                    "id": .string, "course": text, "name": text, "start": .pragueTime, "end": .pragueTime, "room": text, "capacity": number,
                    "occupied": number,
                ]))
        ]))
    static let people = ReadCache.schema(
        .object([
            "people": .array(
                .object([
                    "username": .string, "name": .string, "titles": .object(["before": text, "after": text]), "email": text,
                    "phone": text.described("a teacher's, when KOSapi gives it"), "division": text,
                    "roles": .array(.string),
                ]))
        ]))
    static let office = JSONSchema.object([
        "configured": .boolean, "hours": .array(.object(["day": .string, "weekday": JSONSchema.integer.described("1 = Monday"), "hours": .string])),
        "message?": .string,
    ])
    static let exported = JSONSchema.object([
        "path": .string, "events": .integer, "semester": .string, "first_week_parity": .enumeration(["odd", "even"]), "teaching_weeks": .integer,
    ])
    static let profile = ReadCache.schema(
        .object([
            "name": .string, "username": .string, "programme": text, "study_group": number, "grade": number, "status": text,
        ]))
}
