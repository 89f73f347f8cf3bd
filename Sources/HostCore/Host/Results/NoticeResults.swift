/// `notifications.send` when the notice's dedupe key was seen before: nothing is sent.
struct DuplicateNotice: CallResult, ResultObject {
    let duplicate = true

    static let members = ResultMembers<Self>(.field("duplicate", \.duplicate, .constant(true)))
}

/// `notifications.test`: each sink's answer to a test notice.
struct SinkTests: CallResult, ResultObject {
    let sinks: [SinkTested]

    static let members = ResultMembers<Self>(.field("sinks", \.sinks))
}

/// One sink's answer: `ms` when it took the notice, `error` when not (each left out otherwise).
public struct SinkTested: Sendable, ResultObject {
    let sink: String
    let ok: Bool
    let ms: Double?
    let error: String?

    public static let members = ResultMembers<Self>(
        .field("sink", \.sink), .field("ok", \.ok), .omittedWhenNil("ms", \.ms), .omittedWhenNil("error", \.error))
}

/// `subscribe`: the patterns this connection now receives.
struct SubscribedResult: CallResult, ResultObject {
    let subscribed: [String]

    static let members = ResultMembers<Self>(.field("subscribed", \.subscribed))
}

/// `unsubscribe`: whether the connection was subscribed.
struct UnsubscribedResult: CallResult, ResultObject {
    let unsubscribed: Bool

    static let members = ResultMembers<Self>(.field("unsubscribed", \.unsubscribed))
}
