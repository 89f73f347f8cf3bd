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

    /// A button on each row: `method` called with `arguments`, each a row member's name (`id`)
    /// or a fixed value; shown only where the row's `when` member is true (or always).
    public struct Action: Sendable, Equatable, ResultObject {
        public var method: String
        public var label: Words
        /// Parameter name → the row member that gives it.
        public var fromRow: [String: String]
        /// A row member that must be true (or a non-empty text) for the button to show.
        public var when: String?

        public init(_ method: String, _ label: Words, fromRow: [String: String], when: String? = nil) {
            (self.method, self.label, self.fromRow, self.when) = (method, label, fromRow, when)
        }

        public static let members = ResultMembers<Self>(
            .field("method", \.method), .field("label", \.label), .field("from_row", \.fromRow), .omittedWhenNil("when", \.when))
    }

    /// A form that adds: the method, and which of its parameters the form asks for, each with
    /// its label (the parameter's type and choices come from the method's declaration).
    public struct Form: Sendable, Equatable, ResultObject {
        public struct Field: Sendable, Equatable, ResultObject {
            public var param: String
            public var label: Words

            public init(_ param: String, _ label: Words) { (self.param, self.label) = (param, label) }

            public static let members = ResultMembers<Self>(.field("param", \.param), .field("label", \.label))
        }

        public var method: String
        public var label: Words
        public var fields: [Field]

        public init(_ method: String, _ label: Words, fields: [Field]) { (self.method, self.label, self.fields) = (method, label, fields) }

        public static let members = ResultMembers<Self>(.field("method", \.method), .field("label", \.label), .field("fields", \.fields))
    }

    public var page: Page
    public var title: Words
    /// The read, with `{today}`, `{tomorrow}`, `{week_end}` placeholders as a resource's.
    public var read: ResourceDeclaration.Read
    public var actions: [Action]
    public var form: Form?

    public init(_ page: Page, _ title: Words, read: ResourceDeclaration.Read, actions: [Action] = [], form: Form? = nil) {
        (self.page, self.title, self.read, self.actions, self.form) = (page, title, read, actions, form)
    }

    public static let members = ResultMembers<Self>(
        .field("page", \.page), .field("title", \.title), .field("read", \.read), .field("actions", \.actions),
        .omittedWhenNil("form", \.form))
}
