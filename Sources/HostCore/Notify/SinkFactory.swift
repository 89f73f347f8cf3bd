import Foundation

/// Builds the routed sinks from configuration (at start and on SIGHUP).
enum SinkFactory {
    static func make(
        _ settings: NotifySettings, vault: Vault, standardOutput: @escaping @Sendable (String) -> Void, environment: [String: String],
        clock: any HostClock
    ) throws -> [RoutedSink] {
        var sinks: [RoutedSink] = []
        if settings.stdout.enabled {
            sinks.append(RoutedSink(sink: StdoutSink(format: settings.stdout.format, write: standardOutput), route: settings.stdout.route))
        }
        if settings.mail.enabled {
            let host = ProcessInfo.processInfo.hostName
            let user = environment["USER"] ?? environment["LOGNAME"] ?? "assistantd"
            let from = settings.mail.from ?? "\(user)@\(host)"
            let transport: any MailTransport
            switch settings.mail.transport {
            case "smtp":
                transport = SMTPTransport(settings: settings.smtp, vault: vault)
            default:
                guard FileManager.default.isExecutableFile(atPath: settings.mail.sendmailPath) else {
                    throw StartupError(
                        .configuration,
                        "notify.mail.sendmail_path '\(settings.mail.sendmailPath)' is not an executable program "
                            + "(install an MTA such as msmtp, or use transport = \"smtp\")"
                    )
                }
                transport = SendmailTransport(path: settings.mail.sendmailPath)
            }
            sinks.append(
                RoutedSink(
                    sink: MailSink(settings: MailSettings(from: from, to: settings.mail.to, hostName: host), transport: transport),
                    route: settings.mail.route, isMail: true))
        }
        if settings.ntfy.enabled {
            if let caFile = settings.ntfy.caFile, let problem = SafeFile.problem(reading: caFile) {
                throw StartupError(.configuration, "notify.ntfy.ca_file \(problem)")
            }
            sinks.append(RoutedSink(sink: NtfySink(settings: settings.ntfy, vault: vault), route: settings.ntfy.route))
        }
        for hook in settings.webhooks {
            sinks.append(RoutedSink(sink: WebhookSink(settings: hook, vault: vault, now: { clock.now }), route: hook.route))
        }
        if settings.desktop.enabled {
            guard FileManager.default.isExecutableFile(atPath: settings.desktop.notifySendPath) else {
                throw StartupError(
                    .configuration,
                    "notify.desktop.notify_send_path '\(settings.desktop.notifySendPath)' is not an executable program (install libnotify-bin)")
            }
            sinks.append(
                RoutedSink(sink: DesktopSink(path: settings.desktop.notifySendPath, environment: environment), route: settings.desktop.route))
        }
        return sinks
    }
}
