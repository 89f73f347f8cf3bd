import PluginKit

/// A flight as its duty lists it.
struct DutyFlight: ResultObject, Sendable {
    let id: Int64
    let date: Day
    let dep: String?
    let arr: String?
    let out: String?
    let totalMinutes: Int

    static let members = ResultMembers<Self>(
        .field("id", \.id), .field("date", \.date), .field("dep", \.dep), .field("arr", \.arr),
        .field("out", \.out, .dateTime.nullable, "block off, UTC"), .field("total_min", \.totalMinutes, "minutes"))
}

/// `logbook.duty.add/get/update`, and each row of `logbook.duty.list`.
struct DutyResult: ResultObject, CallResult {
    let duty: Duty
    let flights: [DutyFlight]

    var date: Day { duty.start.day }
    var start: String { duty.start.description }
    var end: String { duty.end.description }
    var countedMinutes: Int { Int((Double(duty.minutes) * duty.kind.countedShare).rounded()) }
    var flightMinutes: Int { flights.reduce(0) { $0 + $1.totalMinutes } }

    static let members = ResultMembers<Self>(
        .field("id", \.duty.id), .field("kind", \.duty.kind), .field("date", \.date, "the UTC date it starts on"),
        .field(
            "origin", \.duty.origin, "person: logged or changed by you; flights: made from the flights' own duty times, and made again as they change"
        ),
        .field("start", \.start, .dateTime), .field("end", \.end, .dateTime), .field("duty_min", \.duty.minutes, "minutes"),
        .field("counted_min", \.countedMinutes, "minutes that count towards the ORO.FTL.210 duty limits"),
        .field("remarks", \.duty.remarks), .field("flights", \.flights, "the flights whose block off falls in it"),
        .field("flight_min", \.flightMinutes, "those flights' total time, minutes"))
}

struct DutyList: ResultObject, CallResult {
    let duties: [DutyResult]
    let totalCount: Int

    static let members = ResultMembers<Self>(.field("duties", \.duties), .field("total_count", \.totalCount))
}

struct DutyDeleted: ResultObject, CallResult {
    let deleted: Int64

    static let members = ResultMembers<Self>(.field("deleted", \.deleted))
}
