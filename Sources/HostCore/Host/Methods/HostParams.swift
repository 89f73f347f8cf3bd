/// The parameters of the host's own methods, each declared once (name, type, default, help) and
/// read through its key.
enum HostParams {
    static let method = Param<String>("method", help: "a method name such as vault.set")
    static let date = Param<DateOnly>("date", help: "the day (YYYY-MM-DD), in the configured time zone; default today")

    static let jobID = Param<String>.required("id", help: "job id as listed by jobs.list, e.g. host.prune")

    static let vaultName = Param<String>.required("name", help: "<plugin>/<name>, e.g. host/smtp/password")
    static let secret = Param<String>.required("secret", .secret, help: "the secret value")
    static let prefix = Param<String>("prefix", help: "only names starting with this, e.g. octoprint/")
    static let entryName = Param<String>.required("name", help: "the entry's full name")
    static let passphrase = Param<String>.required("passphrase", .secret, help: "the vault passphrase")
    static let newPassphrase = Param<String>("passphrase", .secret, help: "the new passphrase (passphrase mode only)")

    static let title = Param<String>.required("title", help: "one-line title (the mail subject)")
    static let body = Param<String>.required("body", help: "the text")
    static let topic = Param<String>.defaulted("topic", default: "host.manual", help: "topic for routing and subscriptions")
    static let severity = Param<String>.defaulted(
        "severity", .oneOf(Severity.allCases.map(\.rawValue)), default: Severity.info.rawValue, help: "debug, info, warning, error or critical")
    static let to = Param<String>("to", help: "mail this address directly instead of routing by topic")
    static let attachments = Param<[String]>(
        "attachments", .array(of: .path), help: "files to attach (absolute paths; the CLI resolves relative ones)")
    static let dedupeKey = Param<String>("dedupe_key", help: "a notice with a key seen before is dropped")
    static let link = Param<String>("link", help: "an http(s) address the notice points to (a phone opens it on a tap)")
    static let sink = Param<String>("sink", help: "a sink's name as status lists it (stdout, mail, ntfy, webhook.NAME, desktop)")
    static let limit = Param<Int64>.defaulted("limit", .integer(min: 1, max: 10_000), default: 50, help: "how many")
    static let topicPattern = Param<String>("topic", help: "a topic or a prefix pattern such as octoprint.*")
    static let topics = Param<[String]>("topics", help: "topics or prefix patterns (octoprint.*); none means all")

    static let backupPath = Param<String>.required("path", .path, help: "where to write the copy")
    static let overwrite = Param<Bool>.defaulted("overwrite", default: false, help: "replace an existing file")

    static let deviceName = Param<String>.defaulted("name", default: "phone", help: "what to call the device (1–64 characters)")
    static let deviceRole = Param<String>.defaulted(
        "role", .oneOf(WebDevices.Role.allCases.map(\.rawValue)), default: WebDevices.Role.read.rawValue,
        help: "read: read methods only; full: reads and writes, each destructive one confirmed on the page")
    static let deviceID = Param<String>.required("id", help: "the device's id as web.devices lists it (a unique start of it will do)")
    static let newDeviceName = Param<String>.required("name", help: "the device's new name (1–64 characters)")
}
