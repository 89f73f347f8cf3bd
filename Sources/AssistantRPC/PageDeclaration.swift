/// A part of a page of the web app, declared in the manifest of the plugin it belongs to (as a
/// `ResourceDeclaration` is for an AI assistant) and published by `plugins.list` (`pages`), so
/// that the web app draws its pages from the manifests and names no plugin itself.
///
/// A section is one of the daemon's reads, shown through that method's own view (its columns or
/// its fields), with actions on each row (a method called with arguments taken from the row) and,
/// optionally, a form that adds (a method whose parameters become the form's fields). Sections of
/// several plugins share a page: the Timetable holds IS/STAG's and KOS's weeks.
public struct PageDeclaration: Sendable, Equatable, ResultObject {
    /// The pages of the web app's navigation.
    public enum Page: String, Sendable, CaseIterable, Codable, ResultDescribing {
        case tasks, timetable, exams, printers, logbook, notices
    }

    public typealias Words = AssistantRPC.Words

    /// A button on each row: `method` called with arguments taken from the row (`fromRow`: a
    /// parameter → the row member that gives it) and fixed ones (`fixed`, a snooze's minutes);
    /// shown only where the row's `when` member is true (or always).
    public struct Action: Sendable, Equatable, ResultObject {
        public var method: String
        public var label: Words
        /// Parameter name → the row member that gives it.
        public var fromRow: [String: String]
        /// Parameter name → its value, the same on every row.
        public var fixed: [String: String]
        /// A row member that must be true (or a non-empty text) for the button to show.
        public var when: String?
        /// Swiping the row to the right presses it (completing a task), where the page has scripts.
        public var swipe: Bool

        public init(
            _ method: String, _ label: Words, fromRow: [String: String], fixed: [String: String] = [:], when: String? = nil, swipe: Bool = false
        ) {
            (self.method, self.label, self.fromRow, self.fixed, self.when, self.swipe) = (method, label, fromRow, fixed, when, swipe)
        }

        public static let members = ResultMembers<Self>(
            .field("method", \.method), .field("label", \.label), .field("from_row", \.fromRow), .field("fixed", \.fixed),
            .omittedWhenNil("when", \.when), .field("swipe", \.swipe))
    }

    /// A form that adds: the method, and which of its parameters the form asks for, each with
    /// its label (the parameter's type and choices come from the method's declaration).
    public struct Form: Sendable, Equatable, ResultObject {
        public struct Field: Sendable, Equatable, ResultObject {
            public var param: String
            public var label: Words
            /// Offered values as the person types (airports by code or name).
            public var suggest: Suggest?

            public init(_ param: String, _ label: Words, suggest: Suggest? = nil) {
                (self.param, self.label, self.suggest) = (param, label, suggest)
            }

            public static let members = ResultMembers<Self>(
                .field("param", \.param), .field("label", \.label), .omittedWhenNil("suggest", \.suggest))
        }

        /// A read that offers values for a field: called with what was typed as `query`; each item
        /// of its `member` list offers its `value` member, described by its `label` members.
        public struct Suggest: Sendable, Equatable, ResultObject {
            public var method: String
            public var query: String
            public var member: String
            public var value: String
            public var label: [String]

            public init(_ method: String, query: String, member: String, value: String, label: [String]) {
                (self.method, self.query, self.member, self.value, self.label) = (method, query, member, value, label)
            }

            public static let members = ResultMembers<Self>(
                .field("method", \.method), .field("query", \.query), .field("member", \.member), .field("value", \.value),
                .field("label", \.label))
        }

        public var method: String
        public var label: Words
        public var fields: [Field]
        /// A check before saving: the form's second button calls the method with `param` (a
        /// boolean, `dry_run`) true, which saves nothing, and the answer (what would be saved,
        /// derived values included) is shown beside what was typed, through the view of `view`.
        public struct Preview: Sendable, Equatable, ResultObject {
            public var param: String
            public var view: String

            public init(param: String, view: String) { (self.param, self.view) = (param, view) }

            public static let members = ResultMembers<Self>(.field("param", \.param), .field("view", \.view))
        }

        public var preview: Preview?

        public init(_ method: String, _ label: Words, fields: [Field], preview: Preview? = nil) {
            (self.method, self.label, self.fields, self.preview) = (method, label, fields, preview)
        }

        public static let members = ResultMembers<Self>(
            .field("method", \.method), .field("label", \.label), .field("fields", \.fields), .omittedWhenNil("preview", \.preview))
    }

    /// A file a method makes, shown in the section (a webcam's picture, a chart) or offered to save
    /// (a PDF): the method is called with `params` and a file the web app names itself in `path`,
    /// since a device never names a file on the daemon's machine.
    public struct Picture: Sendable, Equatable, ResultObject {
        public enum Kind: String, Sendable, CaseIterable, Codable, ResultDescribing {
            case png, jpg, pdf

            public var contentType: String {
                switch self {
                case .png: "image/png"
                case .jpg: "image/jpeg"
                case .pdf: "application/pdf"
                }
            }
        }

        public var method: String
        public var label: Words
        /// The method's fixed arguments, with the read's placeholders.
        public var params: JSONValue
        /// The method's parameter that names the file it writes.
        public var path: String
        /// The file's kind (its extension, by which the method chooses the format).
        public var kind: Kind
        /// Offered as a file to save, not shown.
        public var download: Bool
        /// Drawn again every so many seconds while the page is open (a webcam, a temperature chart).
        public var refreshSeconds: Int?

        public init(
            _ method: String, _ label: Words, params: JSONValue = [:], path: String, kind: Kind, download: Bool = false, refreshSeconds: Int? = nil
        ) {
            (self.method, self.label, self.params, self.path, self.kind) = (method, label, params, path, kind)
            (self.download, self.refreshSeconds) = (download, refreshSeconds)
        }

        public static let members = ResultMembers<Self>(
            .field("method", \.method), .field("label", \.label), .field("params", \.params, .any("fixed arguments, with placeholders")),
            .field("path", \.path), .field("kind", \.kind), .field("download", \.download), .omittedWhenNil("refresh_s", \.refreshSeconds))
    }

    /// The section once for each item of a list (each printer): `member` of `method`'s answer is
    /// the list, each item's `key` names it, and the section's read and pictures get it as `param`.
    public struct Each: Sendable, Equatable, ResultObject {
        public var method: String
        public var member: String
        public var key: String
        public var param: String

        public init(_ method: String, member: String, key: String, param: String) {
            (self.method, self.member, self.key, self.param) = (method, member, key, param)
        }

        public static let members = ResultMembers<Self>(
            .field("method", \.method), .field("member", \.member), .field("key", \.key), .field("param", \.param))
    }

    public var page: Page
    public var title: Words
    /// The read, with `{today}`, `{tomorrow}`, `{week_end}` placeholders as a resource's.
    public var read: ResourceDeclaration.Read
    public var actions: [Action]
    public var form: Form?
    public var pictures: [Picture]
    public var each: Each?

    public init(
        _ page: Page, _ title: Words, read: ResourceDeclaration.Read, actions: [Action] = [], form: Form? = nil, pictures: [Picture] = [],
        each: Each? = nil
    ) {
        (self.page, self.title, self.read, self.actions, self.form) = (page, title, read, actions, form)
        (self.pictures, self.each) = (pictures, each)
    }

    public static let members = ResultMembers<Self>(
        .field("page", \.page), .field("title", \.title), .field("read", \.read), .field("actions", \.actions),
        .omittedWhenNil("form", \.form), .field("pictures", \.pictures), .omittedWhenNil("each", \.each))
}
