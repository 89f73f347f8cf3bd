import PluginKit

/// The daily reminder job: certificates, medicals and recency at 30/14/7/1 days before they
/// lapse, a class rating 90 and 30 days before it expires while the logbook does not yet
/// revalidate it, and flight or duty time at 90% of a limit. Each threshold is notified once: the
/// `logbook_reminders` table remembers what was sent, keyed by item, expiry date and threshold.
extension LogbookService {
    struct Due {
        var key: String
        var topic: LogbookTopic
        var title: String
        var body: String
        var severity: Severity
    }

    func runReminders() async throws {
        let at = today
        let thresholds = context.config[LogbookConfig.reminderDays].map(Int.init).sorted()
        let percent = Double(context.config[LogbookConfig.limitWarningPercent]) / 100
        let language = context.language
        let due: [Due] = try await database.read { db in
            let profile = try Profile.load(db)
            var due: [Due] = []
            func expiring(_ id: String, topic: LogbookTopic, what: String, until: Day?) {
                guard let until else { return }
                let left = until.number - at.number
                // The smallest threshold already reached: after downtime, one notice, not four.
                guard left >= 0, let threshold = thresholds.first(where: { left <= $0 }) else { return }
                due.append(
                    Due(
                        key: "\(id)|\(until)|\(threshold)", topic: topic,
                        title: NoticeWords.expiresIn.text(language, ["what": what, "days": NoticeWords.days(left, language)]),
                        body: NoticeWords.validUntil.text(language, ["what": what, "until": "\(until)", "days": NoticeWords.days(left, language)]),
                        severity: left <= 7 ? .warning : .info))
            }
            for row in try Row.fetchAll(db, sql: "SELECT * FROM logbook_certificates") {
                let c = Certificate(row: row)
                expiring("certificate/\(c.id)", topic: LogbookTopic.certificateExpiring, what: c.name, until: c.validity(profile: profile).until)
            }
            let currency = CurrencyReport.build(flights: try Self.recencyFlights(db, at: at, profile: profile), profile: profile, at: at)
            for item in currency.items {
                guard let until = item.validUntil else { continue }
                let (rule, group) = (item.rule, item.group)
                let name = NoticeWords.recency[rule]?.text(language) ?? rule
                expiring("currency/\(rule)/\(group)", topic: LogbookTopic.currencyExpiring, what: "\(name) (\(group))", until: until)
            }
            // A rating not yet revalidated by the logbook: at 90 and at 30 days, the smallest reached.
            for rating in try Self.ratingsReport(db, at: at).ratings where !rating.met && rating.daysLeft >= 0 {
                guard let threshold = [30, 90].first(where: { rating.daysLeft <= $0 }) else { continue }
                due.append(
                    Due(
                        key: "rating/\(rating.certificate.id)|\(rating.expiry)|\(threshold)", topic: LogbookTopic.ratingRevalidation,
                        title: NoticeWords.ratingTitle.text(
                            language, ["rating": rating.classRating, "days": NoticeWords.days(rating.daysLeft, language)]),
                        body: NoticeWords.ratingBody.text(
                            language, ["rating": rating.classRating, "until": "\(rating.expiry)", "missing": rating.missing.joined(separator: "; ")]),
                        severity: threshold <= 30 ? .warning : .info))
            }
            for (limit, used) in try FlightTimeLimits.evaluate(db, at: at).filter(\.recorded).map({ ($0.limit, $0.used) }) {
                guard Double(used) >= percent * Double(limit.limitMinutes) else { continue }
                due.append(
                    Due(
                        key: "limit|\(limit.id)|\(limit.from)", topic: LogbookTopic.limitApproaching,
                        title: NoticeWords.limitShare.text(
                            language, ["percent": "\(Int((Double(used) / Double(limit.limitMinutes) * 100).rounded()))", "limit": limit.what]),
                        body: NoticeWords.limitBody.text(
                            language,
                            [
                                "used": Minutes.hhmm(used), "limit": Minutes.hhmm(limit.limitMinutes), "reference": limit.reference,
                                "from": "\(limit.from)", "to": "\(at)", "left": Minutes.hhmm(max(0, limit.limitMinutes - used)),
                            ]),
                        severity: used > limit.limitMinutes ? .error : .warning))
            }
            return due
        }
        for d in due {
            let fresh = try await database.write { db -> Bool in
                try db.execute(sql: "INSERT OR IGNORE INTO logbook_reminders (key, notified_at) VALUES (?, ?)", arguments: [d.key, at.description])
                return db.changesCount > 0
            }
            guard fresh else { continue }
            do {
                try await context.notifier.post(topic: d.topic, title: d.title, body: d.body, severity: d.severity, dedupeKey: "logbook|\(d.key)")
            } catch {
                // Not sent: forget it so tomorrow's run tries again.
                try await database.write { db in try db.execute(sql: "DELETE FROM logbook_reminders WHERE key = ?", arguments: [d.key]) }
                throw error
            }
        }
    }
}
