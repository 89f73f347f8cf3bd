import Foundation
import PluginKit

/// Which definition of night the logbook applies.
enum NightCriterion: String, Sendable, CaseIterable, Encodable, ResultDescribing {
    /// EASA and FAR 1.1: from the end of evening to the start of morning civil twilight (sun ≤ −6°).
    case civilTwilight = "civil_twilight"
    /// Sunset to sunrise (upper limb on the horizon with standard refraction: centre ≤ −0.833°).
    case sunset
    /// Sunset + 1 h to sunrise − 1 h (FAA night take-off and landing currency).
    case sunsetPlusHour = "sunset_plus_1h"

    static let names = allCases.map(\.rawValue)

    func isNight(latitude: Double, longitude: Double, unixSeconds: Double) -> Bool {
        switch self {
        case .civilTwilight:
            return SolarPosition.elevation(latitude: latitude, longitude: longitude, unixSeconds: unixSeconds) <= -6
        case .sunset:
            return SolarPosition.elevation(latitude: latitude, longitude: longitude, unixSeconds: unixSeconds) <= -0.833
        case .sunsetPlusHour:
            // Below the horizon for the whole hour before and the hour after: an hour past sunset
            // and an hour before sunrise, also where the sun never rises (polar night).
            return stride(from: -3600.0, through: 3600, by: 600).allSatisfy {
                SolarPosition.elevation(latitude: latitude, longitude: longitude, unixSeconds: unixSeconds + $0) <= -0.833
            }
        }
    }
}

struct NightResult: Sendable, Equatable {
    var nightMinutes: Int
    var nightTakeoff: Bool
    var nightLanding: Bool
}

/// Night time along the great circle between two airports, sampled once a minute (the middle of
/// each minute of block time). Before takeoff the aircraft is at the departure airport and after
/// landing at the arrival airport; in between it moves at constant speed along the great circle.
/// Elevation is evaluated directly at each point, so polar day and night need no special case.
enum NightCalculator {
    static func compute(
        dep: Airport, arr: Airport, out: UTCMinute, in inAt: UTCMinute, off: UTCMinute?, on: UTCMinute?,
        criterion: NightCriterion
    ) -> NightResult {
        let airborneStart = Double((off ?? out).value) * 60
        let airborneEnd = Double((on ?? inAt).value) * 60
        let route = GreatCircle(from: dep, to: arr)
        var night = 0
        for minute in out.value..<inAt.value {
            let t = (Double(minute) + 0.5) * 60
            let fraction =
                airborneEnd > airborneStart ? min(1, max(0, (t - airborneStart) / (airborneEnd - airborneStart))) : (t < airborneStart ? 0 : 1)
            let p = route.point(at: fraction)
            if criterion.isNight(latitude: p.latitude, longitude: p.longitude, unixSeconds: t) { night += 1 }
        }
        let takeoff = criterion.isNight(latitude: dep.latitude, longitude: dep.longitude, unixSeconds: airborneStart)
        let landing = criterion.isNight(latitude: arr.latitude, longitude: arr.longitude, unixSeconds: airborneEnd)
        return NightResult(nightMinutes: night, nightTakeoff: takeoff, nightLanding: landing)
    }
}

/// Spherical linear interpolation between two points on the unit sphere.
struct GreatCircle {
    let a: SIMD3<Double>, b: SIMD3<Double>, angle: Double
    let fromLatLon: (Double, Double)

    init(from: Airport, to: Airport) {
        a = GreatCircle.vector(from.latitude, from.longitude)
        b = GreatCircle.vector(to.latitude, to.longitude)
        let dot = min(1, max(-1, (a * b).sum()))
        angle = acos(dot)
        fromLatLon = (from.latitude, from.longitude)
    }

    func point(at f: Double) -> (latitude: Double, longitude: Double) {
        guard angle > 1e-9 else { return fromLatLon }
        let s = sin(angle)
        let v = a * (sin((1 - f) * angle) / s) + b * (sin(f * angle) / s)
        return (SolarPosition.degrees(atan2(v.z, (v.x * v.x + v.y * v.y).squareRoot())), SolarPosition.degrees(atan2(v.y, v.x)))
    }

    static func vector(_ lat: Double, _ lon: Double) -> SIMD3<Double> {
        let la = SolarPosition.radians(lat)
        let lo = SolarPosition.radians(lon)
        return SIMD3(cos(la) * cos(lo), cos(la) * sin(lo), sin(la))
    }
}
