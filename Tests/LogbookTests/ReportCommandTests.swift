import AssistantTesting
import Foundation
import HostCore
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct ReportCommandTests {
    /// Logs a flight of `minutes` on `date` (08:00 UTC block off, daytime in Europe).
    func fly(_ lb: LogbookHost, _ date: String, minutes: Int, aircraft: String = "OK-SKA", at start: Int = 8 * 60, extra: [String: JSONValue] = [:])
        async throws
    {
        let out = UTCMinuteText(date: date, minute: start)
        let inAt = UTCMinuteText(date: date, minute: start + minutes)
        var p: [String: JSONValue] = ["dep": "LKPR", "arr": "LKPR", "out": .string(out), "in": .string(inAt), "aircraft": .string(aircraft)]
        p.merge(extra) { $1 }
        try await lb.call("logbook.flights.add", .object(p))
    }

    func UTCMinuteText(date: String, minute: Int) -> String {
        let day = ISO8601.date(date + "T00:00:00Z")!.addingTimeInterval(Double(minute) * 60)
        return ISO8601.string(day)
    }

    @Test func totalsWithStartingTotalsGroupsAndPages() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        try await lb.call(
            "logbook.aircraft.add",
            ["registration": "OK-TWN", "model": "DA42", "type_designator": "DA42", "engine": "me", "class_rating": "MEP(land)"])
        try await fly(lb, "2025-12-30", minutes: 60)
        try await fly(lb, "2026-01-02", minutes: 90, aircraft: "OK-TWN")
        try await fly(lb, "2026-01-03", minutes: 30, extra: ["function": "dual", "pic_name": "FI Novák"])
        try await lb.call("logbook.fstd.add", ["date": "2026-01-04", "fstd_type": "DA42 FNPT II", "total": 120])
        try await lb.call("logbook.totals.starting.set", ["total": "100:00", "pic": "80:00", "sp_se": "100:00", "landings_day": 150, "flights": 120])

        let all = try await lb.call("logbook.totals")
        #expect(all["period"]?["flights"] == 3)
        #expect(all["period"]?["fstd_sessions"] == 1)
        #expect(all["period"]?["total_min"] == 180)
        #expect(all["period"]?["sp_se_min"] == 90)
        #expect(all["period"]?["sp_me_min"] == 90)
        #expect(all["period"]?["dual_min"] == 30)
        #expect(all["period"]?["fstd_min"] == 120)
        #expect(all["period"]?["landings_day"] == 3)
        #expect(all["grand_total"]?["total_min"] == 6180)
        #expect(all["grand_total"]?["pic_min"] == 4950)
        #expect(all["grand_total"]?["landings_day"] == 153)

        let year = try await lb.call("logbook.totals", ["from_date": "2026-01-01", "group_by": "year"])
        #expect(year["period"]?["total_min"] == 120)
        #expect(year["grand_total"] == .null, "starting totals lie before a dated period")
        let byClass = try await lb.call("logbook.totals", ["group_by": "class"])["groups"]?.arrayValue ?? []
        #expect(byClass.map { $0["key"]?.stringValue ?? "" } == ["FSTD", "MEP(land)", "SEP(land)"])
        #expect(byClass.first { $0["key"] == "SEP(land)" }?["total_min"] == 90)
        let byFunction = try await lb.call("logbook.totals", ["group_by": "function"])["groups"]?.arrayValue ?? []
        #expect(byFunction.first { $0["key"] == "dual" }?["minutes"] == 30)
        #expect(byFunction.first { $0["key"] == "pic" }?["minutes"] == 150)
        let byMonth = try await lb.call("logbook.totals", ["group_by": "month"])["groups"]?.arrayValue ?? []
        #expect(byMonth.map { $0["key"]?.stringValue ?? "" } == ["2025-12", "2026-01"])

        // Paper pages of 5 lines: one page; brought forward is the starting totals.
        let paged = try await lb.call("logbook.totals", ["page_size": 5])
        #expect(paged["page"]?["pages"] == 1)
        #expect(paged["page"]?["this_page"]?["total_min"] == 180)
        #expect(paged["page"]?["brought_forward"]?["total_min"] == 6000)
        #expect(paged["page"]?["total"]?["total_min"] == 6180)
        for i in 0..<4 { try await fly(lb, "2026-02-01", minutes: 10, at: 9 * 60 + 20 * i) }
        let second = try await lb.call("logbook.totals", ["page_size": 5, "page": 2])
        #expect(second["page"]?["lines"] == 3)
        #expect(second["page"]?["brought_forward"]?["flights"] == 124, "120 brought forward + the 4 lines of page 1 that are flights")
        #expect(try await lb.failure("logbook.totals", ["page_size": 5, "page": 3]).data?["param"] == "page")
        #expect(try await lb.failure("logbook.totals", ["group_by": "colour"]).data?["param"] == "group_by")
        #expect(try await lb.failure("logbook.totals", ["from_date": "2026-02-01", "to_date": "2026-01-01"]).data?["param"] == "to_date")
        #expect(try await lb.failure("logbook.totals.starting.set", ["total": "1:00", "pic": "2:00"]).data?["param"] == "pic")
        await lb.stop()
    }

    /// Totals come from per-month sums kept by triggers; after every kind of change they must
    /// still equal the sums of the entries themselves, for whole and partial months.
    @Test func totalsStayEqualToTheEntriesThroughEveryChange() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        try await lb.addSEP("OK-SKB")
        var ids: [JSONValue] = []
        for (i, date) in ["2026-01-05", "2026-01-20", "2026-02-01", "2026-02-14", "2026-02-28", "2026-03-03", "2026-03-31"].enumerated() {
            let out = UTCMinuteText(date: date, minute: 9 * 60)
            let inAt = UTCMinuteText(date: date, minute: 9 * 60 + 30 + 7 * i)
            let f = try await lb.call(
                "logbook.flights.add",
                [
                    "dep": "LKPR", "arr": "LKTB", "out": .string(out), "in": .string(inAt), "aircraft": i % 2 == 0 ? "OK-SKA" : "OK-SKB",
                ])
            ids.append(f["id"]!)
        }
        try await lb.call("logbook.fstd.add", ["date": "2026-02-10", "fstd_type": "FNPT", "total": 60])
        try await lb.call("logbook.flights.update", ["id": ids[1], "in": "2026-01-20T11:00:00Z"])
        try await lb.call("logbook.flights.update", ["id": ids[2], "date": "2026-03-02", "out": "08:00", "in": "09:00"])
        try await lb.call("logbook.flights.delete", ["id": ids[3]])
        try await lb.call("logbook.flights.delete", ["id": ids[4]])
        try await lb.call("logbook.flights.restore", ["id": ids[4]])
        try await lb.call("logbook.flights.delete", ["id": ids[5]])
        try await lb.call("logbook.flights.purge", ["id": ids[5]])
        try await lb.call("logbook.aircraft.update", ["registration": "OK-SKB", "new_registration": "OK-SKC"])

        let entries = try await lb.call("logbook.flights.list", ["limit": 100])["entries"]?.arrayValue ?? []
        for (from, to) in [(nil, nil), ("2026-01-10", "2026-03-02"), ("2026-02-01", "2026-02-28"), ("2026-02-02", "2026-02-27"), ("2026-03-01", nil)]
            as [(String?, String?)]
        {
            var params: [String: JSONValue] = ["group_by": "aircraft"]
            if let from { params["from_date"] = .string(from) }
            if let to { params["to_date"] = .string(to) }
            let totals = try await lb.call("logbook.totals", .object(params))
            let inRange = entries.filter { e in
                let d = e["date"]?.stringValue ?? ""
                return (from.map { d >= $0 } ?? true) && (to.map { d <= $0 } ?? true)
            }
            let flights = inRange.filter { $0["kind"] == "flight" }
            #expect(totals["period"]?["flights"]?.intValue == Int64(flights.count), "\(from ?? "-")..\(to ?? "-")")
            #expect(
                totals["period"]?["total_min"]?.intValue == flights.reduce(0) { $0 + ($1["total_min"]?.intValue ?? 0) },
                "\(from ?? "-")..\(to ?? "-")")
            #expect(totals["period"]?["fstd_sessions"]?.intValue == Int64(inRange.count - flights.count))
            for group in totals["groups"]?.arrayValue ?? [] where group["key"]?.stringValue?.hasPrefix("OK-") == true {
                let mine = flights.filter { $0["aircraft"] == group["key"] }
                #expect(group["total_min"]?.intValue == mine.reduce(0) { $0 + ($1["total_min"]?.intValue ?? 0) }, "\(group["key"]!)")
            }
            #expect(totals["groups"]?.arrayValue?.contains { $0["key"] == "OK-SKB" } == false, "the renamed aircraft's flights moved")
        }
        await lb.stop()
    }

    @Test func flightTimeLimitsAtTheirWindowEdges() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        try await fly(lb, "2025-03-31", minutes: 600)  // outside the 12 calendar months ending March 2026
        try await fly(lb, "2025-04-01", minutes: 300)  // first day of those 12 months
        try await fly(lb, "2025-12-31", minutes: 120)  // previous calendar year
        try await fly(lb, "2026-02-28", minutes: 60)  // one day before the 28 days ending 28 March
        try await fly(lb, "2026-03-01", minutes: 45)  // first of the 28 days
        try await fly(lb, "2026-03-28", minutes: 15)  // the day itself
        let r = try await lb.call("logbook.limits", ["at": "2026-03-28"])
        func item(_ id: String) -> JSONValue? { r["items"]?.arrayValue?.first { $0["id"]?.stringValue == id } }
        #expect(item("flight_28d")?["used_min"] == 60)
        #expect(item("flight_28d")?["from"] == "2026-03-01")
        #expect(item("flight_28d")?["limit_min"] == 6000)
        #expect(item("flight_28d")?["remaining_min"] == 5940)
        #expect(item("flight_calendar_year")?["used_min"] == 120)
        #expect(item("flight_12_months")?["used_min"] == 540)
        #expect(item("flight_12_months")?["from"] == "2025-04-01")
        // When part of it leaves: the first day's time after 28 days, the year on 1 January, the month after 12.
        #expect(item("flight_28d")?["resets_on"] == "2026-03-29")
        #expect(item("flight_calendar_year")?["resets_on"] == "2027-01-01")
        #expect(item("flight_12_months")?["resets_on"] == "2026-04-01")
        #expect(item("duty_7d")?["status"] == "not_recorded")

        // 90 % of 100 h in 28 days is "approaching"; over it, "exceeded".
        try await lb.addSEP("OK-SKB")
        for d in 10...18 { try await fly(lb, String(format: "2026-03-%02d", d), minutes: 600 - (d == 18 ? 60 : 0), aircraft: "OK-SKB") }
        let near = try await lb.call("logbook.limits", ["at": "2026-03-28"])
        let f28 = near["items"]?.arrayValue?.first { $0["id"] == "flight_28d" }
        let expectedUsed: Int64 = 60 + 8 * 600 + 540
        #expect(f28?["used_min"]?.intValue == expectedUsed)
        #expect(f28?["status"] == "approaching")
        try await fly(lb, "2026-03-20", minutes: 700, aircraft: "OK-SKB")
        let over = try await lb.call("logbook.limits", ["at": "2026-03-28"])
        #expect(over["items"]?.arrayValue?.first { $0["id"] == "flight_28d" }?["status"] == "exceeded")
        #expect(over["items"]?.arrayValue?.first { $0["id"] == "flight_28d" }?["remaining_min"] == 0)

        // Duty is summed when recorded.
        try await fly(lb, "2026-03-27", minutes: 60, extra: ["duty_start": "2026-03-27T06:00:00Z", "duty_end": "2026-03-27T16:00:00Z"])
        let duty = try await lb.call("logbook.limits", ["at": "2026-03-28"])
        #expect(duty["items"]?.arrayValue?.first { $0["id"] == "duty_7d" }?["used_min"] == 600)
        #expect(duty["items"]?.arrayValue?.first { $0["id"] == "duty_7d" }?["status"] == "ok")
        #expect(try await lb.failure("logbook.limits", ["at": "28/03/2026"]).data?["param"] == "at")
        await lb.stop()
    }

    @Test func currencyThroughTheSocket() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        try await fly(lb, "2026-01-01", minutes: 30)
        try await fly(lb, "2026-01-10", minutes: 30)
        try await fly(lb, "2026-02-01", minutes: 30)
        let r = try await lb.call("logbook.currency", ["at": "2026-03-15"])
        let pax = r["items"]?.arrayValue?.first { $0["rule"] == "passengers" }
        #expect(pax?["group"] == "SEP(land)")
        #expect(pax?["valid_until"] == "2026-04-01")
        #expect(pax?["lapses_on"] == "2026-04-02")
        #expect(pax?["status"] == "expiring_soon")
        let night = r["items"]?.arrayValue?.first { $0["rule"] == "night_passengers" }
        #expect(night?["status"] == "lapsed", "no night takeoffs or landings logged")
        #expect(
            try await lb.call("logbook.currency", ["at": "2026-04-02"])["items"]?.arrayValue?.first { $0["rule"] == "passengers" }?["status"]
                == "lapsed")
        await lb.stop()
    }

    @Test func certificatesAndMedicalValidity() async throws {
        let lb = try await LogbookHost.started()
        let needsBirth = try await lb.failure(
            "logbook.certificates.add", ["kind": "medical", "medical_class": "class2", "examination_date": "2026-05-04"])
        #expect(needsBirth.code == 1105)
        try await lb.call("logbook.profile.set", ["name": "Jana Nováková", "date_of_birth": "1986-06-15"])
        let m = try await lb.call("logbook.certificates.add", ["kind": "medical", "medical_class": "class2", "examination_date": "2026-05-04"])
        #expect(m["valid_until"] == "2028-06-15", "39 at examination: capped by the 42nd birthday")
        #expect(m["age_at_examination"] == 39)
        #expect(m["status"] == "ok")
        let printed = try await lb.call(
            "logbook.certificates.add",
            [
                "kind": "medical", "medical_class": "class1", "examination_date": "2026-05-04", "expiry_date": "2027-05-01",
            ])
        #expect(printed["valid_until"] == "2027-05-01")
        #expect(printed["computed_valid_until"] == "2027-05-04")
        #expect(printed["expiry_overridden"] == true)
        let rating = try await lb.call(
            "logbook.certificates.add", ["kind": "other", "name": "SEP(land)", "issue_date": "2024-06-20", "expiry_date": "2026-06-20"])
        #expect(rating["status"] == "expiring_soon", "19 days left on 1 June 2026")
        #expect(
            try await lb.failure("logbook.certificates.add", ["kind": "medical", "examination_date": "2026-05-04"]).data?["param"] == "medical_class")
        #expect(
            try await lb.failure("logbook.certificates.add", ["kind": "medical", "medical_class": "class3", "examination_date": "2026-05-04"]).data?[
                "param"] == "medical_class")
        #expect(
            try await lb.failure("logbook.certificates.add", ["kind": "medical", "medical_class": "class2", "examination_date": "2027-01-01"]).data?[
                "param"] == "examination_date")
        #expect(try await lb.failure("logbook.certificates.add", ["kind": "other"]).data?["param"] == "name")
        #expect(
            try await lb.failure(
                "logbook.certificates.add", ["kind": "other", "name": "IR", "issue_date": "2026-01-01", "expiry_date": "2025-01-01"]
            ).data?["param"] == "expiry_date")

        let medical = try await lb.call("logbook.medical", ["at": "2028-06-16"])
        #expect(medical["medicals"]?.arrayValue?.count == 2)
        #expect(medical["medicals"]?.arrayValue?.allSatisfy { $0["status"] == "lapsed" } == true)
        #expect(medical["current"] == .null)
        #expect(try await lb.call("logbook.certificates.list")["certificates"]?.arrayValue?.count == 3)
        try await lb.call("logbook.certificates.delete", ["id": rating["id"]!])
        #expect(try await lb.failure("logbook.certificates.delete", ["id": rating["id"]!]).code == -32010)
        await lb.stop()
    }

    /// `today` names what needs the pilot's attention on the day asked: a rating within 30 days
    /// of expiry (1 June 2026), the medical as it nears and passes its end (2028).
    @Test func todayWarnsOfWhatLapsesSoonAndOfALapsedMedical() async throws {
        let lb = try await LogbookHost.started()
        try await lb.call("logbook.profile.set", ["name": "Jana Nováková", "date_of_birth": "1986-06-15"])
        try await lb.call("logbook.certificates.add", ["kind": "medical", "medical_class": "class2", "examination_date": "2026-05-04"])
        try await lb.call(
            "logbook.certificates.add", ["kind": "other", "name": "SEP(land)", "issue_date": "2024-06-20", "expiry_date": "2026-06-20"])
        func warnings(_ date: String) async throws -> [JSONValue] {
            let day = try await lb.call("today", ["date": .string(date)])
            #expect(day["problems"] == [])
            return (day["items"]?.arrayValue ?? []).map {
                ["title": $0["title"] ?? .null, "detail": $0["detail"] ?? .null, "overdue": $0["overdue"] ?? .null]
            }
        }
        #expect(
            try await warnings("2026-06-01") == [
                ["title": "Expires soon: SEP(land)", "detail": "valid until 2026-06-20 (19 days)", "overdue": false]
            ])
        #expect(try await warnings("2026-07-01") == [], "a lapsed rating is a state, not news of the day")
        #expect(
            try await warnings("2028-06-01") == [
                ["title": "Medical: Class 2 medical", "detail": "valid until 2028-06-15 (14 days)", "overdue": false]
            ])
        #expect(
            try await warnings("2028-07-01") == [
                ["title": "Medical: Class 2 medical has lapsed", "detail": "valid until 2028-06-15", "overdue": true]
            ])
        await lb.stop()
    }

    @Test func remindersFireOncePerThreshold() async throws {
        // Noon: the daily 07:00 run is not due before tomorrow, so the test runs the job itself.
        let clock = TestClock(now: ISO8601.date("2026-06-01T12:00:00Z")!)
        let lb = try await LogbookHost.started(clock: clock)
        try await lb.addSEP()
        try await lb.call("logbook.aircraft.add", ["registration": "OK-TWN", "model": "DA42", "engine": "me", "class_rating": "MEP(land)"])
        try await lb.call("logbook.certificates.add", ["kind": "other", "name": "SEP(land) rating", "expiry_date": "2026-06-25"])
        for d in ["2026-03-10", "2026-03-11", "2026-03-12"] { try await fly(lb, d, minutes: 30) }  // recency until 8 June
        for d in 5...13 { try await fly(lb, String(format: "2026-05-%02d", d), minutes: 600, aircraft: "OK-TWN") }  // 90 h in 28 days

        func notices(_ topic: String) async throws -> [JSONValue] {
            try await lb.call("notifications.list", ["topic": .string(topic), "limit": 100]).arrayValue ?? []
        }
        func run() async throws { try await lb.call("jobs.run", ["id": "logbook.reminders"]) }

        try await run()
        let certificate = try await notices("logbook.certificate.expiring")
        #expect(certificate.count == 1)
        #expect(certificate.first?["title"]?.stringValue?.contains("24 days") == true)
        let currency = try await notices("logbook.currency.expiring")
        #expect(currency.count == 1, "SEP passenger recency (7 days left); MEP recency is good for months; night recency never held")
        #expect(currency.first?["title"]?.stringValue?.contains("7 days") == true)
        let limit = try await notices("logbook.limit.approaching")
        #expect(limit.count == 1)
        #expect(limit.first?["title"]?.stringValue?.contains("90%") == true)
        let line = try await withDeadline(10, "the stdout sink") { await lb.host.stdout.next { $0.contains("[logbook.certificate.expiring]") } }
        #expect(line.contains("SEP(land) rating expires in 24 days"))

        try await run()
        #expect(try await notices("logbook.certificate.expiring").count == 1, "the same threshold is not notified twice")
        #expect(try await notices("logbook.limit.approaching").count == 1)

        // Eleven days on, the scheduled daily run catches up once by itself.
        clock.advance(to: ISO8601.date("2026-06-12T08:00:00Z")!)
        _ = try await withDeadline(10, "the scheduled reminder run") { await lb.host.stdout.next { $0.contains("expires in 13 days") } }
        let later = try await notices("logbook.certificate.expiring")
        #expect(later.count == 2, "13 days left crosses the 14-day threshold")
        #expect(later.first?["title"]?.stringValue?.contains("13 days") == true)
        #expect(try await notices("logbook.currency.expiring").count == 1, "lapsed recency is not an expiry warning")
        await lb.stop()
    }
}
