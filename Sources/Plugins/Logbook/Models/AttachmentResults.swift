import PluginKit

/// An attachment as `logbook.attachments.*` show it: never its content.
struct AttachmentResult: ResultObject, CallResult {
    let attachment: Attachment
    var record: String { attachment.record.description }

    static let members = ResultMembers<Self>(
        .field("id", \.attachment.id), .field("record", \.record, "12 for a flight or FSTD session, certificate:3 for a certificate"),
        .field("name", \.attachment.name), .field("media_type", \.attachment.mediaType), .field("bytes", \.attachment.bytes),
        .field("sha256", \.attachment.sha256), .field("added_at", \.attachment.addedAt, .dateTime))
}

struct AttachmentList: ResultObject, CallResult {
    let attachments: [AttachmentResult]

    static let members = ResultMembers<Self>(.field("attachments", \.attachments))
}

/// `logbook.attachments.get`: where its content was written.
struct AttachmentWritten: ResultObject, CallResult {
    let attachment: Attachment
    let out: String
    var id: Int64 { attachment.id }

    static let members = ResultMembers<Self>(
        .field("id", \.id), .field("out", \.out), .field("name", \.attachment.name), .field("media_type", \.attachment.mediaType),
        .field("bytes", \.attachment.bytes))
}

struct AttachmentDeleted: ResultObject, CallResult {
    let deleted: Int64

    static let members = ResultMembers<Self>(.field("deleted", \.deleted))
}
