import Foundation

/// Notices: sent by hand, tested sink by sink, listed, and streamed to a connection.
enum NoticeMethods {
    static let all: [HostMethod] = [send, test, list, subscribe, unsubscribe]

    static let send = HostMethod(
        HostCommand(
            "notifications.send", "Send a notice through the configured sinks, or mail one address directly",
            params: [
                HostParams.title, HostParams.body, HostParams.topic, HostParams.severity, HostParams.to, HostParams.attachments,
                HostParams.dedupeKey, HostParams.link,
            ], example: "assistantctl notifications.send title=Hello body='It works'", effect: .write, typed: send
        ).says(
            "Mailed “{title}” to {to} (notice {id:short})", "Sent “{title}”[ on topic {topic}] (notice {id:short})",
            "Dropped “{title}”: a notice with the same dedupe key was sent before"
        )
        .destructive(when: .given(HostParams.to), .given(HostParams.attachments))
        .reachesOutside()
        .confirm(
            "Mail {attachments} to {to} (subject “{title}”)?", "Mail “{title}” to {to}?",
            "Send {attachments} with the notice “{title}” through the configured sinks[ of topic {topic}]?"))

    static func send(_ host: AssistantHost, _ params: Params, _: CallContext) async throws -> OneOf<Notice, DuplicateNotice> {
        let topic = params[HostParams.topic]
        guard !topic.isEmpty, topic.allSatisfy({ $0.isLetter || $0.isNumber || "._-".contains($0) }) else {
            throw HostParams.topic.invalid("must be dotted words such as host.manual, got '\(topic)'")
        }
        let attachments = try (params[HostParams.attachments] ?? []).map { try OutgoingAttachment.file(atPath: $0) }
        let link = params[HostParams.link]
        if let link, !ConfigLoader.isWebURL(link) {
            throw HostParams.link.invalid("must be an http:// or https:// address, got '\(link)'")
        }
        var draft = NoticeDraft(
            topic: topic, plugin: "host", title: try params[HostParams.title], body: try params[HostParams.body],
            severity: Severity(rawValue: params[HostParams.severity]) ?? .info, dedupeKey: params[HostParams.dedupeKey],
            attachments: attachments, directRecipient: params[HostParams.to])
        draft.link = link
        guard let notice = try await host.notices.post(draft) else { return .second(DuplicateNotice()) }
        return .first(notice)
    }

    static let test = HostMethod(
        HostCommand(
            "notifications.test", "Send a test notice straight to one sink or every sink, and report each one's answer",
            params: [HostParams.sink], example: "assistantctl notifications.test sink=ntfy", effect: .write
        ) { host, params, _ in
            SinkTests(sinks: try await host.notices.test(sink: params[HostParams.sink], hostName: ProcessInfo.processInfo.hostName))
        }.says(
            "Sent a test notice to {sink}:", "Sent a test notice to {sinks:count} sink(s):"
        )
        .view(
            ResultView(
                rows: "sinks", columns: [.init("sink", "SINK"), .init("ok", "OK", .flag), .init("ms", "MS"), .init("error", "ERROR")],
                highlights: [.init("ok", is: false, .red)])))

    static let list = HostMethod(
        HostCommand(
            "notifications.list", "Recent notices, newest first", params: [HostParams.limit, HostParams.topicPattern],
            result: JSONSchema.array(Notice.resultSchema).described("newest first"), effect: .read
        ) { host, params, _ in
            Rows(try await host.notices.list(limit: Int(params[HostParams.limit]), topic: params[HostParams.topicPattern].map(TopicPattern.init)))
        })

    static let subscribe = HostMethod(
        HostCommand(
            "subscribe", "Receive notices on this connection as 'notice' notifications", params: [HostParams.topics],
            example: "assistantctl watch 'octoprint.*'", effect: .read
        ) { host, params, context in
            guard let connection = context.connection else { throw RPCError.invalidRequest("subscribe needs a socket connection") }
            let topics = params[HostParams.topics] ?? []
            host.subscribers.subscribe(connection, patterns: topics.map(TopicPattern.init))
            return SubscribedResult(subscribed: topics)
        }
        .personOnly(because: HostMethods.PersonOnly.stream))

    static let unsubscribe = HostMethod(
        HostCommand("unsubscribe", "Stop receiving notices on this connection", effect: .read) { host, _, context in
            guard let connection = context.connection else { return UnsubscribedResult(unsubscribed: false) }
            return UnsubscribedResult(unsubscribed: host.subscribers.unsubscribe(connection.connectionID))
        }
        .personOnly(because: HostMethods.PersonOnly.stream))
}
