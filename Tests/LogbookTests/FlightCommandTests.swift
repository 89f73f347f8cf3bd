import AssistantTesting
import Foundation
import HostCore
import Testing

@Suite(.stopsTestHosts, .timeLimit(.minutes(3)))
struct FlightCommandTests {
    @Test func aFlightGetsItsDerivedColumnsFilledIn() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        let f = try await lb.call(
            "logbook.flights.add",
            [
                "dep": "LKPR", "arr": "LKTB", "out": "2026-03-01T08:00:00Z", "in": "2026-03-01T09:05:00Z", "aircraft": "ok-ska",
            ])
        #expect(f["date"] == "2026-03-01")
        #expect(f["aircraft"] == "OK-SKA")
        #expect(f["total_min"] == 65)
        #expect(f["sp_se_min"] == 65)
        #expect(f["sp_me_min"] == 0)
        #expect(f["pic_min"] == 65, "the profile's default function is PIC")
        #expect(f["pic_name"] == "SELF")
        #expect(f["night_min"] == 0)
        #expect(f["takeoffs_day"] == 1)
        #expect(f["landings_day"] == 1)
        let id = f["id"]!
        var stored = try await lb.call("logbook.flights.get", ["id": id]).objectValue ?? [:]
        #expect(stored.removeValue(forKey: "attachments") == [], "get lists the flight's attachments: none")
        #expect(JSONValue.object(stored) == f, "and otherwise what add answered")
        await lb.stop()
    }

    @Test func aNightFlightPastMidnightGivenInClockTimes() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        try await lb.call("logbook.profile.set", ["default_function": "copilot"])
        let f = try await lb.call(
            "logbook.flights.add",
            [
                "date": "2026-01-20", "dep": "LKPR", "arr": "LKTB", "out": "23:30", "in": "00:45", "aircraft": "OK-SKA", "ifr": "0:30",
            ])
        #expect(f["out"] == "2026-01-20T23:30:00Z")
        #expect(f["in"] == "2026-01-21T00:45:00Z")
        #expect(f["date"] == "2026-01-20", "the date is the UTC date of block off")
        #expect(f["total_min"] == 75)
        #expect(f["night_min"] == 75)
        #expect(f["takeoffs_night"] == 1)
        #expect(f["landings_night"] == 1)
        #expect(f["copilot_min"] == 75)
        #expect(f["pic_min"] == 0)
        #expect(f["pic_name"] == .null)
        #expect(f["ifr_min"] == 30)
        await lb.stop()
    }

    @Test func explicitValuesWinAndDurationsTakeEveryForm() async throws {
        let lb = try await LogbookHost.started()
        try await lb.call("logbook.aircraft.add", ["registration": "OK-TWN", "model": "DA42", "engine": "me"])
        let f = try await lb.call(
            "logbook.flights.add",
            [
                "dep": "LKTB", "arr": "LKTB", "out": "2026-04-01T10:00:00Z", "off": "2026-04-01T10:10:00Z", "on": "2026-04-01T11:20:00Z",
                "in": "2026-04-01T11:30:00Z", "aircraft": "OK-TWN", "dual": "1.5", "pic": 0, "night": 0, "landings_day": 5, "takeoffs_day": 5,
                "approaches": 2, "remarks": "circuits with FI", "pic_name": "J. Novák",
            ])
        #expect(f["sp_me_min"] == 90)
        #expect(f["dual_min"] == 90)
        #expect(f["pic_min"] == 0)
        #expect(f["landings_day"] == 5)
        #expect(f["approaches"] == 2)
        #expect(f["pic_name"] == "J. Novák")
        #expect(f["off"] == "2026-04-01T10:10:00Z")
        await lb.stop()
    }

    @Test func badFlightsAreRefusedNamingTheFieldAndNothingIsWritten() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        let good: [String: JSONValue] = [
            "dep": "LKPR", "arr": "LKTB", "out": "2026-03-01T08:00:00Z", "in": "2026-03-01T09:00:00Z", "aircraft": "OK-SKA",
        ]
        try await lb.call("logbook.flights.add", .object(good))
        func with(_ changes: [String: JSONValue]) -> JSONValue { .object(good.merging(changes) { $1 }.filter { $0.value != .null }) }
        let cases: [(JSONValue, String)] = [
            (with(["total": .double(1.5)]), "total"),
            (with(["night": "1:75"]), "night"),
            (with(["dep": "ZZZZ"]), "dep"),
            (with(["arr": "LK"]), "arr"),
            (with(["in": "2026-03-01T07:00:00Z"]), "in"),
            (with(["in": "2026-03-03T09:00:00Z"]), "in"),
            (with(["out": "yesterday"]), "out"),
            (with(["out": "08:00"]), "out"),
            (with(["off": "2026-03-01T07:50:00Z"]), "off"),
            (with(["pic": 61]), "pic"),
            (with(["night": "2:00"]), "night"),
            (with(["total": 70]), "total"),
            (with(["landings_day": -1]), "landings_day"),
            (with(["takeoffs_night": "two"]), "takeoffs_night"),
            (with(["aircraft": "OK-XXX"]), "aircraft"),
            (with(["date": "2026-03-02"]), "date"),
            (with(["date": "2026-02-30"]), "date"),
            (with(["function": "captain"]), "function"),
            (with(["duty_start": "2026-03-01T07:00:00Z"]), "duty_end"),
            (with(["dep": .null]), "dep"),
            (with(["colour": "red"]), "colour"),
        ]
        for (params, field) in cases {
            let error = try await lb.failure("logbook.flights.add", params)
            #expect(error.code == -32602, "\(params.encodedString()): \(error.message)")
            #expect(error.data?["param"]?.stringValue == field, "\(params.encodedString()) names \(field): \(error.message)")
        }
        let duplicate = try await lb.failure("logbook.flights.add", .object(good))
        #expect(duplicate.code == 1103)
        #expect(try await lb.count() == 1, "no refused flight was written")
        await lb.stop()
    }

    @Test func updateDeleteRestoreAndPurge() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        let f = try await lb.call(
            "logbook.flights.add",
            [
                "dep": "LKPR", "arr": "LKTB", "out": "2026-03-01T08:00:00Z", "in": "2026-03-01T09:00:00Z", "aircraft": "OK-SKA", "remarks": "first",
            ])
        let id = f["id"]!
        let moved = try await lb.call("logbook.flights.update", ["id": id, "in": "2026-03-01T09:30:00Z"])
        #expect(moved["total_min"] == 90, "derived total follows the new block time")
        #expect(moved["sp_se_min"] == 90)
        #expect(moved["pic_min"] == 90)
        #expect(moved["remarks"] == "first")
        let renamed = try await lb.call("logbook.flights.update", ["id": id, "remarks": "changed", "pic": 45])
        #expect(renamed["total_min"] == 90)
        #expect(renamed["pic_min"] == 45)
        let bad = try await lb.failure("logbook.flights.update", ["id": id, "in": "2026-03-01T07:00:00Z"])
        #expect(bad.data?["param"] == "in")
        #expect(try await lb.call("logbook.flights.get", ["id": id])["remarks"] == "changed", "a refused update changes nothing")
        #expect(try await lb.failure("logbook.flights.update", ["id": 999]).code == -32010)

        try await lb.call("logbook.flights.delete", ["id": id])
        #expect(try await lb.count() == 0)
        #expect(try await lb.count(["deleted": true]) == 1)
        #expect(try await lb.call("logbook.totals")["period"]?["flights"] == 0, "deleted flights leave the totals")
        try await lb.call("logbook.flights.restore", ["id": id])
        #expect(try await lb.count() == 1)
        try await lb.call("logbook.flights.delete", ["id": id])
        #expect(try await lb.call("logbook.flights.purge")["purged"] == 1)
        #expect(try await lb.failure("logbook.flights.restore", ["id": id]).code == -32010)
        await lb.stop()
    }

    @Test func listFiltersAsThePilotThinks() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        try await lb.addSEP("OK-SKB")
        try await lb.call(
            "logbook.flights.add", ["dep": "LKPR", "arr": "LKTB", "out": "2026-03-01T08:00:00Z", "in": "2026-03-01T09:00:00Z", "aircraft": "OK-SKA"])
        try await lb.call(
            "logbook.flights.add",
            [
                "dep": "LKTB", "arr": "LKPR", "out": "2026-03-01T17:30:00Z", "in": "2026-03-01T18:10:00Z", "aircraft": "OK-SKB",
                "remarks": "night check",
            ])
        try await lb.call(
            "logbook.flights.add",
            [
                "dep": "LKPR", "arr": "EGLL", "out": "2026-03-05T08:00:00Z", "in": "2026-03-05T10:00:00Z", "aircraft": "OK-SKA", "ifr": 120,
                "function": "dual",
            ])
        try await lb.call("logbook.fstd.add", ["date": "2026-03-02", "fstd_type": "A320 FFS", "qualification": "DE-123", "total": "4:00"])
        #expect(try await lb.count() == 4)
        #expect(try await lb.count(["kind": "fstd"]) == 1)
        #expect(try await lb.count(["kind": "flight"]) == 3)
        #expect(try await lb.count(["text": "egll"]) == 1)
        #expect(try await lb.count(["text": "night check"]) == 1)
        #expect(try await lb.count(["text": "A320"]) == 1)
        #expect(try await lb.count(["aircraft": "ok-ska"]) == 2)
        #expect(try await lb.count(["night": true]) == 1)
        #expect(try await lb.count(["ifr": true]) == 1)
        #expect(try await lb.count(["function": "dual"]) == 1)
        #expect(try await lb.count(["min_total": "1:00", "kind": "flight"]) == 2)
        #expect(try await lb.count(["max_total": 45]) == 1)
        #expect(try await lb.count(["from_date": "2026-03-02", "to_date": "2026-03-04"]) == 1)
        let page = try await lb.call("logbook.flights.list", ["limit": 2, "offset": 1])
        #expect(page["entries"]?.arrayValue?.count == 2)
        #expect(page["entries"]?.arrayValue?.first?["kind"] == "fstd", "newest first: 5 Mar, then 2 Mar (FSTD)")
        #expect(try await lb.failure("logbook.flights.list", ["min_total": .double(1.5)]).data?["param"] == "min_total")
        #expect(try await lb.failure("logbook.flights.list", ["limit": 0]).data?["param"] == "limit")
        #expect(try await lb.failure("logbook.flights.list", ["kind": "glider"]).data?["param"] == "kind")
        await lb.stop()
    }

    @Test func aircraftAndFSTDSessions() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        #expect(try await lb.failure("logbook.aircraft.add", ["registration": "ok-ska"]).code == 1101)
        #expect(try await lb.failure("logbook.aircraft.add", ["registration": "OK SKA!"]).data?["param"] == "registration")
        #expect(try await lb.failure("logbook.aircraft.add", ["registration": "OK-ABC", "engine": "jet"]).data?["param"] == "engine")
        try await lb.call(
            "logbook.flights.add", ["dep": "LKPR", "arr": "LKTB", "out": "2026-03-01T08:00:00Z", "in": "2026-03-01T09:00:00Z", "aircraft": "OK-SKA"])
        #expect(try await lb.failure("logbook.aircraft.delete", ["registration": "OK-SKA"]).code == 1102)
        let renamed = try await lb.call("logbook.aircraft.update", ["registration": "OK-SKA", "new_registration": "OK-SKZ", "variant": "SP"])
        #expect(renamed["registration"] == "OK-SKZ")
        #expect(try await lb.count(["aircraft": "OK-SKZ"]) == 1, "its flights follow the new registration")
        let list = try await lb.call("logbook.aircraft.list")["aircraft"]?.arrayValue ?? []
        #expect(list.count == 1)
        #expect(list.first?["flights"] == 1)
        #expect(list.first?["currency_group"] == "SEP(land)")

        let s = try await lb.call("logbook.fstd.add", ["date": "2026-02-10", "fstd_type": "A320 FFS", "total": 240, "remarks": "LOFT"])
        #expect(s["kind"] == "fstd")
        #expect(s["total_min"] == 240)
        #expect(
            try await lb.failure("logbook.fstd.add", ["date": "2026-02-10", "fstd_type": "A320", "total": .double(4.5)]).data?["param"] == "total")
        #expect(try await lb.failure("logbook.fstd.add", ["date": "2026-02-10", "fstd_type": " ", "total": 60]).data?["param"] == "fstd_type")
        #expect(try await lb.failure("logbook.fstd.add", ["date": "10.2.2026", "fstd_type": "A320", "total": 60]).data?["param"] == "date")
        #expect(try await lb.call("logbook.fstd.list")["total_count"] == 1)
        try await lb.call("logbook.fstd.delete", ["id": s["id"]!])
        #expect(try await lb.call("logbook.fstd.list")["total_count"] == 0)
        await lb.stop()
    }

    @Test func airportsSearchAndPrivateStrips() async throws {
        let lb = try await LogbookHost.started()
        let found = try await lb.call("logbook.airports.search", ["query": "brno"])["airports"]?.arrayValue ?? []
        #expect(found.contains { $0["icao"] == "LKTB" })
        let byIATA = try await lb.call("logbook.airports.search", ["query": "PRG"])["airports"]?.arrayValue ?? []
        #expect(byIATA.first?["icao"] == "LKPR")
        #expect(byIATA.first?["tz"] == "Europe/Prague")
        #expect(
            try await lb.failure("logbook.airports.add", ["icao": "XXAB", "name": "Strip", "latitude": 95, "longitude": 16, "tz": "Europe/Prague"])
                .data?["param"] == "latitude")
        #expect(
            try await lb.failure("logbook.airports.add", ["icao": "XXAB", "name": "Strip", "latitude": 49, "longitude": 16, "tz": "Mars/Olympus"])
                .data?["param"] == "tz")
        try await lb.call(
            "logbook.airports.add", ["icao": "xxab", "name": "Farm strip Kněžice", "latitude": 49.27, "longitude": 15.68, "tz": "Europe/Prague"])
        try await lb.addSEP()
        let f = try await lb.call(
            "logbook.flights.add", ["dep": "LKTB", "arr": "XXAB", "out": "2026-03-01T08:00:00Z", "in": "2026-03-01T08:40:00Z", "aircraft": "OK-SKA"])
        #expect(f["arr"] == "XXAB")
        let iata = try await lb.call(
            "logbook.flights.add", ["dep": "PRG", "arr": "BRQ", "out": "2026-03-02T08:00:00Z", "in": "2026-03-02T08:40:00Z", "aircraft": "OK-SKA"])
        #expect(iata["dep"] == "LKPR", "IATA codes are stored as ICAO")
        // The nearest airports: your own strip among the bundled ones, nearest first, in nautical miles.
        let atStrip = try await lb.call("logbook.airports.near", ["latitude": 49.27, "longitude": 15.68, "limit": 3])["airports"]?.arrayValue ?? []
        #expect(atStrip.count == 3 && atStrip.first?["icao"] == "XXAB" && atStrip.first?["source"] == "user", "\(atStrip)")
        #expect(atStrip.first?["distance_nm"]?.doubleValue == 0)
        let distances = atStrip.compactMap { $0["distance_nm"]?.doubleValue }
        #expect(distances == distances.sorted() && distances.count == 3)
        await lb.stop()
    }

    /// A duty's clock times are read on the flight's date; an end before the start is the next day.
    @Test func dutyClockTimesAreReadOnTheFlightsDate() async throws {
        let lb = try await LogbookHost.started()
        try await lb.addSEP()
        let day = try await lb.call(
            "logbook.flights.add",
            [
                "date": "2026-03-01", "dep": "LKPR", "arr": "LKTB", "out": "08:00", "in": "09:00", "aircraft": "OK-SKA", "duty_start": "06:00",
                "duty_end": "10:30",
            ])
        #expect(day["duty_start"] == "2026-03-01T06:00:00Z" && day["duty_end"] == "2026-03-01T10:30:00Z", "\(day)")
        let overnight = try await lb.call(
            "logbook.flights.add",
            [
                "dep": "LKTB", "arr": "LKPR", "out": "2026-03-05T22:30:00Z", "in": "2026-03-05T23:40:00Z", "aircraft": "OK-SKA",
                "duty_start": "21:45", "duty_end": "00:30",
            ])
        #expect(overnight["duty_start"] == "2026-03-05T21:45:00Z" && overnight["duty_end"] == "2026-03-06T00:30:00Z", "\(overnight)")
        let updated = try await lb.call("logbook.flights.update", ["id": day["id"]!, "duty_end": "11:00"])
        #expect(updated["duty_end"] == "2026-03-01T11:00:00Z", "on the stored flight's date")
        let late = try await lb.failure(
            "logbook.flights.add",
            [
                "date": "2026-03-02", "dep": "LKPR", "arr": "LKTB", "out": "08:00", "in": "09:00", "aircraft": "OK-SKA", "duty_start": "06:00",
                "duty_end": "05:00",
            ])
        #expect(late.data?["param"] == "duty_end" && late.message.contains("before 'duty_start' (06:00)"), "\(late.message)")
        await lb.stop()
    }

    /// `logbook.airports.near` against distances computed by hand (haversine, R = 3 440.065 NM):
    /// Brno-Tuřany to Prague is 110.5 NM.
    @Test func theNearestAirportsWithTheirDistances() async throws {
        let lb = try await LogbookHost.started()
        let brno = try await lb.call("logbook.airports.near", ["latitude": 49.1513, "longitude": 16.6944])["airports"]?.arrayValue ?? []
        #expect(brno.count == 10, "ten by default")
        #expect(brno.first?["icao"] == "LKTB" && brno.first?["distance_nm"]?.doubleValue == 0, "\(brno.prefix(2))")
        #expect(brno.dropFirst().allSatisfy { ($0["distance_nm"]?.doubleValue ?? 0) > 0 })
        let far = try await lb.call("logbook.airports.near", ["latitude": 49.1513, "longitude": 16.6944, "limit": 50])["airports"]?.arrayValue ?? []
        #expect(far.count == 50 && !far.contains { $0["icao"] == "LKPR" }, "Prague is further than the 50 nearest")
        let prague = try await lb.call("logbook.airports.near", ["latitude": 50.1008, "longitude": 14.26, "limit": 1])["airports"]?.arrayValue ?? []
        #expect(prague.first?["icao"] == "LKPR" && prague.first?["name"] == "Václav Havel Airport")
        // A strip of your own on the equator: a degree of longitude away is 3 440.065 × π / 180 = 60.04 NM.
        try await lb.call("logbook.airports.add", ["icao": "XXEQ", "name": "Equator strip", "latitude": 0, "longitude": 0, "tz": "UTC"])
        let equator = try await lb.call("logbook.airports.near", ["latitude": 0, "longitude": 1, "limit": 1])["airports"]?.arrayValue ?? []
        #expect(equator.first?["icao"] == "XXEQ" && equator.first?["distance_nm"]?.doubleValue == 60.0, "\(equator)")
        for (params, field) in [
            (["latitude": 95, "longitude": 16] as JSONValue, "latitude"), (["latitude": 49, "longitude": -181], "longitude"),
            (["latitude": 49, "longitude": 16, "limit": 0], "limit"), (["latitude": 49, "longitude": 16, "limit": 51], "limit"),
            (["longitude": 16], "latitude"),
        ] {
            #expect(try await lb.failure("logbook.airports.near", params).data?["param"] == .string(field), "\(params)")
        }
        await lb.stop()
    }

    @Test func nightCommandUsesTheChosenCriterion() async throws {
        let lb = try await LogbookHost.started()
        let leg: JSONValue = ["dep": "LKPR", "arr": "LKTB", "out": "2026-03-20T17:00:00Z", "in": "2026-03-20T18:10:00Z"]
        let civil = try await lb.call("logbook.night", leg)
        let sunset = try await lb.call("logbook.night", .object(leg.objectValue!.merging(["criterion": "sunset"]) { $1 }))
        #expect(civil["block_min"] == 70)
        #expect((civil["night_min"]?.intValue ?? 0) < (sunset["night_min"]?.intValue ?? 0), "sunset starts night earlier than civil twilight")
        #expect(
            try await lb.failure("logbook.night", .object(leg.objectValue!.merging(["in": "2026-03-20T16:00:00Z"]) { $1 })).data?["param"] == "in")
        #expect(
            try await lb.failure("logbook.night", .object(leg.objectValue!.merging(["criterion": "moonrise"]) { $1 })).data?["param"] == "criterion")
        await lb.stop()
    }
}
