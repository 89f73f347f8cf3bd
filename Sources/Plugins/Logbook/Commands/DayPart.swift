import Foundation
import PluginKit

/// The Logbook part of `today`: what needs the pilot's attention on that day. Recency that is
/// about to lapse (within 30 days; a recency long lapsed is a state, not news), a medical that is
/// about to lapse or has lapsed, certificates about to expire, and a class rating within 90 days
/// of expiry that the logbook does not yet revalidate.
extension LogbookService: DayContributing {
    public func dayItems(_ query: DayQuery) async throws -> [DayItem] {
        let at = Day(query.date.description) ?? today
        var items: [DayItem] = []
        let currency = try await currency(at: at)
        for rule in currency.items where rule.status == .expiringSoon {
            items.append(
                DayItem(
                    kind: .warning, title: "Recency: \(rule.rule) (\(rule.group))",
                    detail: ValidityStatus.untilText(rule.validUntil, at: rule.at)))
        }
        let medical = try await medical(at: at)
        let current = medical.current
        if let current, current.status == .expiringSoon {
            items.append(DayItem(kind: .warning, title: "Medical: \(current.certificate.name)", detail: current.lapse))
        } else if current == nil, let newest = medical.medicals.first {
            items.append(
                DayItem(
                    kind: .warning, title: "Medical: \(newest.certificate.name) has lapsed",
                    detail: newest.validUntil.map { "valid until \($0)" }, overdue: true))
        }
        let certificates = try await certificatesList(at: at)
        for certificate in certificates.certificates where certificate.certificate.kind != "medical" && certificate.status == .expiringSoon {
            items.append(DayItem(kind: .warning, title: "Expires soon: \(certificate.certificate.name)", detail: certificate.lapse))
        }
        for rating in try await ratings(at: at).ratings where !rating.met && (0...90).contains(rating.daysLeft) {
            items.append(
                DayItem(
                    kind: .warning, title: "Not yet revalidated: \(rating.classRating)",
                    detail: "expires \(rating.expiry); missing \(rating.missing.joined(separator: "; "))"))
        }
        return items
    }
}
