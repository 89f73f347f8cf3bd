import Foundation
import HostCore
import Testing

@testable import Logbook

@Suite(.stopsTestHosts, .timeLimit(.minutes(2)))
struct DurationInputTests {
    @Test func integersAreMinutesAndStringsAreHours() throws {
        #expect(try Minutes.parse(.int(95), field: "total") == 95)
        #expect(try Minutes.parse("1:35", field: "total") == 95)
        #expect(try Minutes.parse("12:05", field: "total") == 725)
        #expect(try Minutes.parse("1.42", field: "total") == 85)  // 85.2 rounds to 85
        #expect(try Minutes.parse("1.5", field: "total") == 90)
        #expect(try Minutes.parse("2", field: "total") == 120)
        #expect(try Minutes.parse("0.01", field: "total") == 1)  // 0.6 rounds up
    }

    @Test func badDurationsNameTheFieldAndTheForms() {
        for bad: JSONValue in [.double(1.5), "1:5", "1:60", "abc", "-1", "1.2.3", ".5", "", .bool(true), .int(-3)] {
            do {
                _ = try Minutes.parse(bad, field: "night")
                Issue.record("\(bad) was accepted")
            } catch {
                #expect(error.code == -32602)
                #expect(error.data?["param"] == "night")
            }
        }
        do {
            _ = try Minutes.parse(.double(1.5), field: "total")
            Issue.record("1.5 was accepted")
        } catch {
            #expect(error.message.contains("\"1:30\""), "the message shows both accepted forms: \(error.message)")
        }
    }
}

@Suite(.stopsTestHosts, .timeLimit(.minutes(2)))
struct DayArithmeticTests {
    @Test func civilDatesRoundTrip() {
        for text in ["1970-01-01", "2000-02-29", "2026-11-22", "1899-12-31", "2100-03-01"] {
            #expect(Day(text)?.description == text)
        }
        #expect(Day("2026-02-29") == nil)
        #expect(Day("2026-13-01") == nil)
        #expect(Day("26-01-01") == nil)
        #expect(Day("2026-01-01")!.number == 20454)
    }

    @Test func monthsClampToTheMonthsEnd() {
        #expect(Day("2026-08-31")!.adding(months: 6).description == "2027-02-28")
        #expect(Day("2027-08-31")!.adding(months: 6).description == "2028-02-29")
        #expect(Day("2026-01-15")!.adding(months: -11).description == "2025-02-15")
        #expect(Day("2000-02-29")!.adding(years: 42).description == "2042-02-28")
    }

    @Test func ageCountsBirthdays() {
        let born = Day("1986-06-15")!
        #expect(Day.age(on: Day("2026-06-14")!, bornOn: born) == 39)
        #expect(Day.age(on: Day("2026-06-15")!, bornOn: born) == 40)
        let leapling = Day("2000-02-29")!
        #expect(Day.age(on: Day("2041-02-28")!, bornOn: leapling) == 41)
        #expect(Day.age(on: Day("2040-02-28")!, bornOn: leapling) == 39)
        #expect(Day.age(on: Day("2040-02-29")!, bornOn: leapling) == 40)
    }
}

/// Part-MED MED.A.045 at each age boundary. Expected dates are worked out by hand from the rule
/// text (reference §1.3), for a pilot born 1986-06-15.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2)))
struct MedicalValidityTests {
    let born = Day("1986-06-15")!

    func until(_ cls: String, _ exam: String, spCAT: Bool = false) -> String {
        MedicalRules.validity(medicalClass: cls, examination: Day(exam)!, birth: born, singlePilotCATPassengers: spCAT).validUntil.description
    }

    @Test func classOne() {
        #expect(until("class1", "2026-06-14") == "2027-06-14")  // 39: 12 months
        #expect(until("class1", "2026-06-15") == "2027-06-15")  // 40, not single-pilot CAT: still 12
        #expect(until("class1", "2026-06-14", spCAT: true) == "2027-06-14")  // 39 single-pilot CAT: 12
        #expect(until("class1", "2026-06-15", spCAT: true) == "2026-12-15")  // 40 single-pilot CAT: 6
        #expect(until("class1", "2046-06-14") == "2047-06-14")  // 59: 12
        #expect(until("class1", "2046-06-15") == "2046-12-15")  // 60: 6
        #expect(until("class1", "2027-08-31", spCAT: true) == "2028-02-29")  // day-for-day, clamped to February's end
    }

    @Test func classTwo() {
        #expect(until("class2", "2021-01-10") == "2026-01-10")  // 34: 60 months, before the 42nd birthday
        #expect(until("class2", "2024-06-14") == "2028-06-15")  // 37: 60 months would pass the 42nd birthday
        #expect(until("class2", "2026-06-14") == "2028-06-15")  // 39: capped by the 42nd birthday
        #expect(until("class2", "2026-06-15") == "2028-06-15")  // 40: 24 months
        #expect(until("class2", "2030-01-01") == "2032-01-01")  // 43: 24 months
        #expect(until("class2", "2036-06-14") == "2037-06-15")  // 49: 24 months would pass the 51st birthday
        #expect(until("class2", "2036-06-15") == "2037-06-15")  // 50: 12 months
        #expect(until("class2", "2040-03-01") == "2041-03-01")  // 53: 12 months
    }

    @Test func lapl() {
        #expect(until("lapl", "2020-03-01") == "2025-03-01")  // 33: 60 months
        #expect(until("lapl", "2026-06-14") == "2028-06-15")  // 39: capped by the 42nd birthday
        #expect(until("lapl", "2026-06-15") == "2028-06-15")  // 40: 24 months
        #expect(until("lapl", "2040-02-10") == "2042-02-10")  // 53: 24 months (no 12-month step for LAPL)
    }

    @Test func aLeapDayBirthdayCapsOnTheTwentyEighth() {
        let v = MedicalRules.validity(
            medicalClass: "class2", examination: Day("2038-05-01")!, birth: Day("2000-02-29")!, singlePilotCATPassengers: false)
        #expect(v.validUntil.description == "2042-02-28")
        #expect(v.ageAtExamination == 38)
    }
}

@Suite(.stopsTestHosts, .timeLimit(.minutes(2)))
struct RecencyRuleTests {
    func flight(_ day: String, to: Int = 1, ldg: Int = 1, nightTO: Int = 0, nightLdg: Int = 0, pic: Int = 60, group: String = "SEP(land)")
        -> RecencyFlight
    {
        RecencyFlight(
            day: Day(day)!, group: group, category: "aeroplane", takeoffs: to, landings: ldg, nightTakeoffs: nightTO,
            nightLandings: nightLdg, picMinutes: pic)
    }

    /// The rule's row as a client reads it: the report's encoding.
    func item(_ report: CurrencyResult, _ rule: String, _ group: String = "SEP(land)") -> JSONValue? {
        (try? report.jsonValue())?["items"]?.arrayValue?.first { $0["rule"]?.stringValue == rule && $0["group"]?.stringValue == group }
    }

    @Test func passengerRecencyAtTheNinetyDayEdge() {
        let flights = [flight("2026-01-01"), flight("2026-01-10"), flight("2026-02-01")]
        let profile = Profile()
        func status(_ at: String) -> (String?, String?, Int64?) {
            let i = item(CurrencyReport.build(flights: flights, profile: profile, at: Day(at)!), "passengers")
            return (i?["status"]?.stringValue, i?["valid_until"]?.stringValue, i?["days_left"]?.intValue)
        }
        // The third most recent takeoff and landing (1 January) keeps counting through 1 April.
        #expect(status("2026-03-02").0 == "ok")
        #expect(status("2026-03-02").2 == 30)
        #expect(status("2026-03-03").0 == "expiring_soon")
        #expect(status("2026-04-01") == ("expiring_soon", "2026-04-01", 0))
        #expect(status("2026-04-02").0 == "lapsed")
        // Before the third flight there were only two: not current.
        #expect(status("2026-01-31").0 == "lapsed")
    }

    @Test func takeoffsAndLandingsCountSeparatelyAndMultipleLandingsInOneFlightCount() {
        // One flight with three circuits satisfies the rule alone.
        let circuits = [flight("2026-05-01", to: 3, ldg: 3)]
        let r = CurrencyReport.build(flights: circuits, profile: Profile(), at: Day("2026-05-02")!)
        #expect(item(r, "passengers")?["valid_until"]?.stringValue == "2026-07-30")
        // Landings without takeoffs (imported data) do not make the pilot current.
        let noTakeoffs = [flight("2026-05-01", to: 0, ldg: 3)]
        let r2 = CurrencyReport.build(flights: noTakeoffs, profile: Profile(), at: Day("2026-05-02")!)
        #expect(item(r2, "passengers")?["status"] == "lapsed")
    }

    @Test func nightRecencyNeedsANightTakeoffAndLandingUnlessInstrumentRated() throws {
        let flights = [flight("2026-05-01", nightTO: 1, nightLdg: 0), flight("2026-05-10", nightTO: 0, nightLdg: 1)]
        var profile = Profile()
        let r = CurrencyReport.build(flights: flights, profile: profile, at: Day("2026-06-01")!)
        #expect(item(r, "night_passengers")?["valid_until"] == "2026-07-30", "the older of the two night events decides")
        profile.instrumentRating = true
        let r2 = CurrencyReport.build(flights: [], profile: profile, at: Day("2026-06-01")!)
        #expect((try r2.jsonValue())["items"] == [])
        let r3 = CurrencyReport.build(flights: flights, profile: profile, at: Day("2026-06-01")!)
        #expect(item(r3, "night_passengers")?["status"] == "not_required")
    }

    @Test func recencyIsPerClassOrType() {
        let flights = [flight("2026-05-01", to: 3, ldg: 3, group: "SEP(land)"), flight("2026-05-02", to: 1, ldg: 1, group: "MEP(land)")]
        let r = CurrencyReport.build(flights: flights, profile: Profile(), at: Day("2026-05-03")!)
        #expect(item(r, "passengers", "SEP(land)")?["status"] == "ok")
        #expect(item(r, "passengers", "MEP(land)")?["status"] == "lapsed")
    }

    @Test func laplRecencyOverTwentyFourMonths() {
        var profile = Profile()
        profile.licences = [["type": "LAPL(A)"]]
        // Twelve flights of 1 h, one each month from January 2025.
        let flights = (1...12).map { m in flight(String(format: "2025-%02d-05", m), pic: 60) }
        let r = CurrencyReport.build(flights: flights, profile: profile, at: Day("2026-01-01")!)
        let lapl = item(r, "lapl_recency", "aeroplane")
        #expect(lapl?["valid_until"] == "2027-01-05", "the twelfth most recent flight (5 Jan 2025) + 24 months")
        #expect(lapl?["status"] == "ok")
        #expect(lapl?["window"]?["pic_min"] == 720)
        let short = CurrencyReport.build(flights: Array(flights.dropFirst()), profile: profile, at: Day("2026-01-01")!)
        #expect(item(short, "lapl_recency", "aeroplane")?["status"] == "lapsed")
    }
}

/// Night time against values from an independent solar implementation (astral), produced by
/// `scripts/logbook/night-reference.py` and committed with it.
@Suite(.stopsTestHosts, .timeLimit(.minutes(2)))
struct NightReferenceTests {
    struct Leg: Decodable {
        var dep: String, arr: String, out: String, `in`: String, off: String?, on: String?, criterion: String
        var night_min: Int, night_takeoff: Bool, night_landing: Bool
    }
    struct Fixture: Decodable { var legs: [Leg] }

    static func legs() throws -> [Leg] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/night_reference.json")
        return try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: url)).legs
    }

    @Test func legsAtSeveralLatitudesAndSeasonsWithinTwoMinutes() throws {
        let airports = AirportLookup(user: [:])
        let legs = try Self.legs()
        #expect(legs.count >= 10)
        for leg in legs {
            let r = NightCalculator.compute(
                dep: airports.airport(leg.dep)!, arr: airports.airport(leg.arr)!, out: UTCMinute.parseISO(leg.out)!,
                in: UTCMinute.parseISO(leg.in)!, off: leg.off.flatMap(UTCMinute.parseISO), on: leg.on.flatMap(UTCMinute.parseISO),
                criterion: NightCriterion(rawValue: leg.criterion)!)
            #expect(
                abs(r.nightMinutes - leg.night_min) <= 2, "\(leg.dep)-\(leg.arr) \(leg.out) \(leg.criterion): \(r.nightMinutes) vs \(leg.night_min)")
            #expect(r.nightTakeoff == leg.night_takeoff, "\(leg.dep)-\(leg.arr) \(leg.out) night takeoff")
            #expect(r.nightLanding == leg.night_landing, "\(leg.dep)-\(leg.arr) \(leg.out) night landing")
        }
    }

    @Test func polarNightAndPolarDayAtTheField() {
        let svalbard = AirportLookup(user: [:]).airport("ENSB")!
        let winter = NightCalculator.compute(
            dep: svalbard, arr: svalbard, out: UTCMinute.parseISO("2026-12-21T11:00:00Z")!, in: UTCMinute.parseISO("2026-12-21T12:00:00Z")!,
            off: nil, on: nil, criterion: .civilTwilight)
        #expect(winter == NightResult(nightMinutes: 60, nightTakeoff: true, nightLanding: true))
        let summer = NightCalculator.compute(
            dep: svalbard, arr: svalbard, out: UTCMinute.parseISO("2026-06-21T23:00:00Z")!, in: UTCMinute.parseISO("2026-06-22T01:00:00Z")!,
            off: nil, on: nil, criterion: .civilTwilight)
        #expect(summer == NightResult(nightMinutes: 0, nightTakeoff: false, nightLanding: false))
    }
}
