import Foundation

/// The sun's geometric elevation (no refraction) by NOAA's solar-position equations
/// (Meeus, "Astronomical Algorithms", low-precision form; about 0.01° here, well below the one
/// minute the logbook resolves). Written by hand: no Swift package computes solar position.
enum SolarPosition {
    /// Elevation in degrees of the sun's centre above the horizon at `latitude`/`longitude`
    /// (degrees, east positive) at `unixSeconds` UTC.
    static func elevation(latitude: Double, longitude: Double, unixSeconds: Double) -> Double {
        let jd = unixSeconds / 86_400 + 2_440_587.5
        let t = (jd - 2_451_545) / 36_525
        let l0 = normalized(280.46646 + t * (36_000.76983 + t * 0.0003032))
        let m = 357.52911 + t * (35_999.05029 - 0.0001537 * t)
        let e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
        let mr = radians(m)
        let center =
            sin(mr) * (1.914602 - t * (0.004817 + 0.000014 * t)) + sin(2 * mr) * (0.019993 - 0.000101 * t)
            + sin(3 * mr) * 0.000289
        let omega = radians(125.04 - 1934.136 * t)
        let lambda = radians(l0 + center - 0.00569 - 0.00478 * sin(omega))
        let eps0 = 23 + (26 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60) / 60
        let eps = radians(eps0 + 0.00256 * cos(omega))
        let declination = asin(sin(eps) * sin(lambda))

        let y = pow(tan(eps / 2), 2)
        let l0r = radians(l0)
        let equationOfTime =
            4
            * degrees(
                y * sin(2 * l0r) - 2 * e * sin(mr) + 4 * e * y * sin(mr) * cos(2 * l0r) - 0.5 * y * y * sin(4 * l0r)
                    - 1.25 * e * e * sin(2 * mr))
        let minutesOfDay = (unixSeconds / 60).truncatingRemainder(dividingBy: 1440)
        let trueSolarMinutes = (minutesOfDay + equationOfTime + 4 * longitude).truncatingRemainder(dividingBy: 1440)
        let hourAngle = radians(trueSolarMinutes / 4 - 180)
        let lat = radians(latitude)
        let cosZenith = sin(lat) * sin(declination) + cos(lat) * cos(declination) * cos(hourAngle)
        return 90 - degrees(acos(min(1, max(-1, cosZenith))))
    }

    static func radians(_ d: Double) -> Double { d * .pi / 180 }
    static func degrees(_ r: Double) -> Double { r * 180 / .pi }
    static func normalized(_ d: Double) -> Double {
        let r = d.truncatingRemainder(dividingBy: 360)
        return r < 0 ? r + 360 : r
    }
}
