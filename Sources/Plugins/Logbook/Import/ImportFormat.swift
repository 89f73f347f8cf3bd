import Foundation

/// The logbook exports the plugin reads, with their column names (see the domain reference §5).
enum ImportFormat: String, CaseIterable, Sendable {
    case native, foreflight, logten, mccpilotlog, myflightbook

    static let names = allCases.map(\.rawValue)

    /// How a format writes durations.
    enum DurationUnit { case minutes, hours }

    var durationUnit: DurationUnit { self == .native || self == .mccpilotlog ? .minutes : .hours }

    /// Detection from the file's beginning (reference §5.1).
    static func detect(_ head: String) -> ImportFormat? {
        let firstLine = head.prefix { $0 != "\n" && $0 != "\r" }
        if firstLine.hasPrefix("ForeFlight") { return .foreflight }
        if head.contains("flight_flightDate") && head.contains("aircraft_aircraftID") { return .logten }
        if head.prefix(1000).uppercased().contains("MCC_DATE") { return .mccpilotlog }
        let header = firstLine.lowercased()
        if header.hasPrefix("kind") && header.contains("total_min") { return .native }
        if header.contains("tail number") || header.contains("total flight time") { return .myflightbook }
        return nil
    }

    /// Header names (case-insensitive) for each logbook field, most specific first.
    var aliases: [String: [String]] {
        switch self {
        case .native:
            var a: [String: [String]] = [:]
            for name in ImportFormat.nativeColumns { a[name] = [name] }
            return a
        case .foreflight:
            return [
                "date": ["Date"], "registration": ["AircraftID"], "model": ["Model"], "type": ["TypeCode"],
                "dep": ["From"], "arr": ["To"], "out": ["TimeOut"], "off": ["TimeOff"], "on": ["TimeOn"], "in": ["TimeIn"],
                "duty_start": ["OnDuty"], "duty_end": ["OffDuty"],
                "total": ["TotalTime"], "pic": ["PIC"], "copilot": ["SIC"], "night": ["Night"], "ifr": ["IFR"], "mp": ["MultiPilot"],
                "picus": ["PICUS"], "dual": ["DualReceived"], "instructor": ["DualGiven"], "sim": ["SimulatedFlight"],
                "takeoffs_day": ["DayTakeoffs"], "landings_day": ["DayLandingsFullStop"], "takeoffs_night": ["NightTakeoffs"],
                "landings_night": ["NightLandingsFullStop"], "landings_all": ["AllLandings"], "remarks": ["PilotComments"],
                "pic_name": ["Person1"], "approach1": ["Approach1"], "approach2": ["Approach2"], "approach3": ["Approach3"],
                "approach4": ["Approach4"], "approach5": ["Approach5"], "approach6": ["Approach6"],
            ]
        case .logten:
            return [
                "date": ["flight_flightDate"], "registration": ["aircraft_aircraftID"],
                "model": ["aircraftType_model", "flight_selectedAircraftType"],
                "type": ["aircraftType_type", "flight_selectedAircraftType"], "dep": ["flight_from"], "arr": ["flight_to"],
                "out": ["flight_actualDepartureTime"], "off": ["flight_takeoffTime"], "on": ["flight_landingTime"],
                "in": ["flight_actualArrivalTime"],
                "duty_start": ["flight_onDutyTime"], "duty_end": ["flight_offDutyTime"],
                "total": ["flight_totalTime"], "pic": ["flight_pic"], "copilot": ["flight_sic"], "night": ["flight_night"],
                "ifr": ["flight_ifr", "flight_actualInstrument"], "mp": ["flight_multiPilot"], "picus": ["flight_p1us"],
                "dual": ["flight_dualReceived"], "instructor": ["flight_dualGiven"], "sim": ["flight_simulator"],
                "takeoffs_day": ["flight_dayTakeoffs"], "landings_day": ["flight_dayLandings"], "takeoffs_night": ["flight_nightTakeoffs"],
                "landings_night": ["flight_nightLandings"], "approaches": ["flight_totalApproaches"], "remarks": ["flight_remarks"],
                "pic_name": ["flight_selectedCrewPIC"],
            ]
        case .mccpilotlog:
            return [
                "date": ["mcc_DATE"], "registration": ["AC_REG"], "model": ["AC_MODEL"], "dep": ["AF_DEP"], "arr": ["AF_ARR"],
                "out": ["TIME_DEP"], "off": ["TIME_TO"], "on": ["TIME_LDG"], "in": ["TIME_ARR"],
                "total": ["TIME_TOTAL"], "pic": ["TIME_PIC"], "picus": ["TIME_PICUS"], "copilot": ["TIME_SIC"], "dual": ["TIME_DUAL"],
                "instructor": ["TIME_INSTRUCTOR"], "examiner": ["TIME_EXAMINER"], "night": ["TIME_NIGHT"], "ifr": ["TIME_IFR"],
                "takeoffs_day": ["TO_DAY"], "takeoffs_night": ["TO_NIGHT"], "landings_day": ["LDG_DAY"], "landings_night": ["LDG_NIGHT"],
                "remarks": ["REMARKS"], "pic_name": ["PILOT1_NAME"], "is_sim": ["AC_ISSIM"],
            ]
        case .myflightbook:
            return [
                "date": ["Date", "Date Flown", "FlightDate"], "registration": ["Tail Number", "Registration", "Tail"],
                "model": ["Model", "Aircraft Type"], "dep": ["From"], "arr": ["To"], "route": ["Route"],
                "out": ["Block Out Time", "Block Out", "Engine Start"], "off": ["Flight Start"], "on": ["Flight End"],
                "in": ["Block In Time", "Block In", "Engine End"],
                "out_local": ["Block Out (Local)", "Block Out Time (Local)"], "in_local": ["Block In (Local)", "Block In Time (Local)"],
                "total": ["Total Flight Time"], "pic": ["PIC"], "copilot": ["SIC"], "night": ["Night"], "ifr": ["IMC"],
                "dual": ["Dual Received"], "instructor": ["CFI"], "sim": ["Ground Simulator"],
                "landings_day": ["FS Day Landings"], "landings_night": ["FS Night Landings"], "landings_all": ["Landings"],
                "takeoffs_night": ["Takeoffs - Night"], "approaches": ["Approaches"], "remarks": ["Comments"], "pic_name": ["Name of PIC"],
                "duty_start": ["Duty Time Start (UTC)"], "duty_end": ["Duty Time End (UTC)"],
            ]
        }
    }

    /// The native CSV's columns, which `logbook.export format=csv` writes and this reads back exactly.
    static let nativeColumns: [String] =
        [
            "kind", "date", "dep", "arr", "out", "off", "on", "in", "registration", "aircraft_make", "aircraft_model", "aircraft_variant",
            "aircraft_type", "aircraft_engine", "aircraft_operation", "aircraft_category", "aircraft_class",
        ]
        + TimeColumn.allCases.map(\.column) + CountColumn.allCases.map(\.name)
        + ["pic_name", "remarks", "duty_start", "duty_end", "fstd_type", "fstd_qualification"]
}
