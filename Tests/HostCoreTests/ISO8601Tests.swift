import AssistantRPC
import Foundation
import Testing

/// `ISO8601.string` writes what `Date.ISO8601FormatStyle()` writes, for every date.
@Suite struct ISO8601Tests {
    static func foundation(_ t: Double) -> String { Date(timeIntervalSince1970: t).formatted(Date.ISO8601FormatStyle()) }

    @Test func edgesLeapDaysAndTheYearsFoundationWritesItself() {
        let edges: [Double] = [
            0, 0.9, -0.1, -1.5, -86_400, -86_399.5, 951_782_400 /* 2000-02-29 */, -2_203_891_200 /* 1900-03-01 */,
            4_107_456_000 /* 2100-02-28 */, 4_107_542_400, -12_212_553_600 /* 1583-01-01 */, -12_212_553_600.5,
            -12_219_292_800 /* 1582-10-15 */, -62_135_596_800, 253_402_300_799.9, 253_402_300_800, 1e15, -1e15,
        ]
        for t in edges { #expect(ISO8601.string(Date(timeIntervalSince1970: t)) == Self.foundation(t), "\(t)") }
        #expect(ISO8601.string(Date(timeIntervalSince1970: 1_795_534_671)) == "2026-11-24T15:37:51Z")
    }

    @Test func randomDatesMatchFoundation() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let t =
                Double.random(in: -13_000_000_000...254_000_000_000, using: &generator).rounded(.down) + [0, 0.25, 0.999].randomElement(
                    using: &generator)!
            #expect(ISO8601.string(Date(timeIntervalSince1970: t)) == Self.foundation(t), "\(t)")
        }
    }
}
