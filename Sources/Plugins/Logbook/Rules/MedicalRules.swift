import PluginKit

/// Part-MED MED.A.045(a): validity of class 1, class 2 and LAPL medical certificates, counted
/// day-for-day from the examination date. The age that decides is the age on the examination date
/// (as MyFlightbook's `ProfileCurrency.MedicalStatus` reckons it); a certificate that "ceases to be
/// valid after the 42nd birthday" is valid through that birthday.
enum MedicalRules {
    static let classes = ["class1", "class2", "lapl"]

    struct Validity: Sendable, Equatable {
        var validUntil: Day
        var ageAtExamination: Int
        var rule: String
    }

    static func validity(medicalClass: String, examination: Day, birth: Day, singlePilotCATPassengers: Bool) -> Validity {
        let age = Day.age(on: examination, bornOn: birth)
        func months(_ n: Int) -> Day { examination.adding(months: n) }
        func birthday(_ years: Int) -> Day { birth.adding(years: years) }
        switch medicalClass {
        case "class1":
            if age >= 60 { return Validity(validUntil: months(6), ageAtExamination: age, rule: "class 1 at 60 or over: 6 months") }
            if singlePilotCATPassengers && age >= 40 {
                return Validity(
                    validUntil: months(6), ageAtExamination: age,
                    rule: "class 1, single-pilot commercial passenger operations at 40 or over: 6 months")
            }
            return Validity(validUntil: months(12), ageAtExamination: age, rule: "class 1: 12 months")
        case "class2":
            if age < 40 {
                let limit = min(months(60), birthday(42))
                return Validity(validUntil: limit, ageAtExamination: age, rule: "class 2 under 40: 60 months, not beyond the 42nd birthday")
            }
            if age < 50 {
                let limit = min(months(24), birthday(51))
                return Validity(validUntil: limit, ageAtExamination: age, rule: "class 2 from 40 to 49: 24 months, not beyond the 51st birthday")
            }
            return Validity(validUntil: months(12), ageAtExamination: age, rule: "class 2 at 50 or over: 12 months")
        default:
            if age < 40 {
                let limit = min(months(60), birthday(42))
                return Validity(validUntil: limit, ageAtExamination: age, rule: "LAPL under 40: 60 months, not beyond the 42nd birthday")
            }
            return Validity(validUntil: months(24), ageAtExamination: age, rule: "LAPL at 40 or over: 24 months")
        }
    }
}
