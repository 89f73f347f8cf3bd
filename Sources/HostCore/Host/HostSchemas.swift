/// The JSON Schemas of the host's own methods' results.
enum HostSchemas {
    static let today = JSONSchema.object([
        "date": .date, "time_zone": .string, "items": .array(DayItem.resultSchema),
        "problems": .array(.object(["plugin": .string, "message": .string]))
            .described("plugins whose part could not be read (the others are shown)"),
    ])
    static let job = JSONSchema.object([
        "id": JSONSchema.string.described("<plugin>.<job>"), "summary": .string, "schedule": .string, "running": .boolean,
        "last_run?": .dateTime, "last_success?": .dateTime, "last_outcome?": JSONSchema.string.described("ok, failed or timed out"),
        "last_error?": .string, "consecutive_failures": .integer, "next_run?": .dateTime,
    ])

    static let notice = JSONSchema.object([
        "id": .string, "topic": .string, "plugin": .string, "title": .string, "body": .string, "severity": .enumeration(Severity.self),
        "time": .dateTime, "dedupe_key": JSONSchema.string.nullable,
        "attachments": .array(.object(["name": .string, "content_type": .string, "size": .integer])),
        "link?": JSONSchema.string.described("where the notice points (a printer's page, an exam term)"),
    ])

    static let accountState = JSONSchema.object([
        "name": .string, "state": .enumeration(Accounts.State.self), "detail": JSONSchema.string.nullable,
    ])
    static let plugin = JSONSchema.object([
        "id": .string, "version": .string, "summary": .string, "state": .enumeration(PluginState.self), "detail": JSONSchema.string.nullable,
        "next_retry?": .dateTime, "accounts?": .array(accountState),
    ])

    static let sinkState = JSONSchema.object([
        "name": .string, "state": JSONSchema.enumeration(["ok", "failed"]).described("failed: refused a notice for good, until reloaded"),
        "last_success": JSONSchema.dateTime.nullable, "last_error": JSONSchema.string.nullable, "last_error_at": JSONSchema.dateTime.nullable,
        "failed_deliveries": .integer,
    ])
    static let sinkTest = JSONSchema.object(["sink": .string, "ok": .boolean, "ms?": .number, "error?": .string])

    static let status = JSONSchema.object([
        "version": .string, "api_version": .string, "pid": .integer, "time_zone": .string, "now": .dateTime, "started": .dateTime,
        "uptime_s": .integer, "socket": .string, "database": .string, "config_file": JSONSchema.string.nullable,
        "vault": .object(["mode": .enumeration(["keyfile", "passphrase"]), "locked": .boolean]), "connections": .integer,
        "calls_in_flight": .object(["total": .integer, "plugins": .map(.integer)]), "subscribers": .integer, "dropped_notices": .integer,
        "sinks": .array(.string), "sink_status": .array(sinkState),
        "outbox": JSONSchema.object(["pending": .integer, "retrying": .integer]).nullable,
        "plugins": .array(plugin), "jobs": .array(job),
    ])

    static let param = JSONSchema.object([
        "name": .string, "type": .string, "required": .boolean, "help": .string, "default?": .any("the value used when it is not given"),
        "minimum?": .number, "maximum?": .number, "choices?": .array(.string), "items?": .string,
    ])
    static let methodLine = JSONSchema.object(["name": .string, "plugin": .string, "summary": .string, "usage": .string])
    static let help = JSONSchema.anyOf([
        .object(["methods": .array(methodLine)]).described("without method: every method"),
        methodLine.adding([
            "params": .array(param), "result": JSONSchema.string.described("the result in words"),
            "result_schema": JSONSchema.any("the JSON Schema of the result"), "rules?": .array(.string), "example?": .string,
            "effect?": JSONSchema.enumeration(CommandEffect.self).described("what calling it does to the world, where declared"),
            "effect_rule?": JSONSchema.string.described("when its arguments make it destructive, or why its effect is what it is"),
            "destructive_when?": JSONSchema.array(JSONSchema.any("{param, given: true} or {param, equals: value}"))
                .described("arguments that make a call destructive"),
            "person_only?": JSONSchema.string.described("why only a person calls it, and an AI assistant is never offered it"),
            "confirm?": JSONSchema.object(["sentences": .array(.string), "details?": .string]).described(
                "what a person is asked before a destructive call: templates over its arguments ({name}, {name:day}, optional […]), "
                    + "the first that fills; details names a read whose answer fills the rest"),
            "view?": JSONSchema.any(ResultView.schemaDescription),
        ]).described("with method: that method whole"),
    ])

    static let pluginEntry = plugin.adding([
        "commands": .array(.string), "jobs": .array(.string),
        "topics": .array(.object(["topic": .string, "summary": .string, "severity": .enumeration(Severity.self)])),
        "vault_names": .array(.string),
        "errors": JSONSchema.array(.object(["code": .integer, "meaning": .string])).described("the plugin's own error codes"),
        "config_options": .array(
            .object(["key": .string, "type": .string, "default": .any("the default, or null"), "help": .string])),
        "resources": JSONSchema.array(
            .object([
                "uri": .string, "name": .string, "description": .string, "mime_type": .string,
                "reads": .array(
                    .object([
                        "method": .string, "params": .any("the read's arguments, with {today}-style placeholders"),
                        "part?": .string, "only_state?": .string,
                    ])),
                "topics": .array(.string), "prompts": .array(.string),
            ])
        ).described("the views an AI assistant can attach (MCP resources), declared in the manifest"),
        "resources_set_up": JSONSchema.object(["method": .string, "member": .string]).nullable.described(
            "the read whose member (a list that is not empty, or true) says the plugin has views; null: ready is enough"),
    ])

    static let vaultEntry = JSONSchema.object(["name": .string, "created_at": .dateTime, "updated_at": .dateTime])
}
