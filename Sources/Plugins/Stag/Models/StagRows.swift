import Foundation
import PluginKit

/// The rows STAG's operations answer, decoded by STAG's own keys (reference §3, and
/// `Tests/peers/stag-reference-additions.md`). Only the fields this plugin reads are declared;
/// the domain models (`TimetableEvent`, `ExamTerm`, `GradeRow`, the info results) are made from
/// these, so no STAG key is spelt anywhere else.
enum StagRow {
    /// The name fields of a person (a teacher, a student, the logged-in user).
    protocol Person {
        var titulPred: String? { get }
        var jmeno: String? { get }
        var prijmeni: String? { get }
        var titulZa: String? { get }
    }

    /// `rozvrhovaAkce` (§3.4): a timetable action, dated when asked for a date range.
    struct Action: Decodable, Sendable {
        @StagDate var datum: String?
        @StagText var katedra: String?
        @StagText var predmet: String?
        /// `Z` for an exam.
        @StagText var druhAkce: String?
        @StagTime var hodinaSkutOd: String?
        @StagTime var hodinaSkutDo: String?
        @StagText var nazev: String?
        @StagText var typAkce: String?
        @StagText var budova: String?
        @StagText var mistnost: String?
        @StagNames var vsichniUciteleJmenaTitulySPodily: [String]
        @StagPerson var ucitel: String?
        /// `K` every week, `L` odd, `S` even.
        @StagText var tydenZkr: String?
        @StagText var nekonaSe: String?
        @StagText var poznamkaRozvrhare: String?
        @StagInt var roakIdno: Int64?
        /// An exam's term.
        @StagInt var referencedIdno: Int64?
    }

    /// `termin` (§3.6, §3.9): an exam term.
    struct Term: Decodable, Sendable {
        @StagInt var termIdno: Int64?
        @StagText var katedra: String?
        @StagText var predmet: String?
        @StagText var typTerminu: String?
        @StagDate var datum: String?
        @StagTime var casOd: String?
        @StagTime var casDo: String?
        @StagText var budova: String?
        @StagText var mistnost: String?
        @StagPerson var ucitel: String?
        @StagInt var obsazeni: Int64?
        @StagInt var limit: Int64?
        @StagFlag var zapsan: Bool?
        @StagFlag var lzeZapsatOdepsat: Bool?
        @StagText var kodDuvoduProcNelzeZapsatOdepsat: String?
        @StagText var textDuvoduProcNelzeZapsatOdepsat: String?
        @StagText var popisDuvoduProcNelzeZapsatOdepsat: String?
        @StagDateTime var deadlineDatumPrihlaseni: String?
        @StagDateTime var deadlineDatumOdhlaseni: String?
        @StagText var poznamka: String?
    }

    /// `student_na_predmetu` (§3.11): one subject enrolment's result.
    struct Enrolment: Decodable, Sendable {
        @StagText var katedra: String?
        @StagText var zkratka: String?
        @StagInt var rok: Int64?
        @StagText var semestr: String?
        @StagInt var kredity: Int64?
        @StagText var zk_typ_hodnoceni: String?
        @StagText var zk_hodnoceni: String?
        @StagPresent var zppzk_hodnoceni: Bool
        @StagDate var zk_datum: String?
        @StagInt var zk_pokus: Int64?
        @StagText var zk_ucit_jmeno: String?
    }

    /// `predmetStudenta`, `predmetUcitele`, `predmetKatedry`: a subject in a list.
    struct Subject: Decodable, Sendable {
        @StagText var katedra: String?
        /// The code, or `KAT/CODE` in some lists.
        @StagText var zkratka: String?
        @StagText var nazev: String?
        @StagInt var kredity: Int64?
        @StagInt var rok: Int64?
        /// In `getPredmetyByFakulta`'s rows: taught in winter, in summer (A/N).
        @StagFlag var vyukaZS: Bool?
        @StagFlag var vyukaLS: Bool?
    }

    /// `ciselniky/getSeznamPracovist`: a faculty or a department; a renamed one is listed once per
    /// name, the current one without an end of validity.
    struct Workplace: Decodable, Sendable {
        @StagText var zkratka: String?
        @StagText var nazev: String?
        @StagText var typPracoviste: String?
        @StagDate var platnostDo: String?
    }

    /// `predmety/getPredmetInfo`: a subject's details.
    struct SubjectInfo: Decodable, Sendable {
        @StagText var nazev: String?
        @StagText var nazevDlouhy: String?
        @StagInt var rok: Int64?
        @StagInt var kreditu: Int64?
        @StagNames var garanti: [String]
        @StagNames var prednasejici: [String]
        @StagNames var cvicici: [String]
        @StagNames var seminarici: [String]
        @StagNames var examinatori: [String]
        @StagText var typZkousky: String?
        @StagText var formaZkousky: String?
        @StagFlag var maZapocetPredZk: Bool?
        @StagFlag var vyukaZS: Bool?
        @StagFlag var vyukaLS: Bool?
        @StagText var vyucovaciJazyky: String?
        @StagText var anotace: String?
        @StagText var pozadavky: String?
        @StagText var prehledLatky: String?
        @StagText var predpoklady: String?
        @StagText var literatura: String?
        @StagText var podminujiciPredmety: String?
        @StagText var vylucujiciPredmety: String?
        @StagInt var jednotekPrednasek: Int64?
        @StagText var jednotkaPrednasky: String?
        @StagInt var jednotekCviceni: Int64?
        @StagText var jednotkaCviceni: String?
        @StagInt var jednotekSeminare: Int64?
        @StagText var jednotkaSeminare: String?
        @StagText var predmetUrl: String?
        @StagText var ziskaneZpusobilosti: String?
        @StagText var metodyVyucovaci: String?
        @StagText var metodyHodnotici: String?
        @StagText var casovaNarocnost: String?
    }

    /// `ucitel/getUcitelInfo` and the teacher searches' `ucitel` rows.
    struct Teacher: Decodable, Sendable, Person {
        @StagInt var ucitIdno: Int64?
        @StagText var titulPred: String?
        @StagText var jmeno: String?
        @StagText var prijmeni: String?
        @StagText var titulZa: String?
        @StagText var katedra: String?
        @StagText var email: String?
        @StagText var telefon: String?
        @StagText var telefon2: String?
        @StagText var url: String?
        @StagText var zkrBudovy: String?
        @StagText var cisloMistnosti: String?
    }

    /// `student/getStudentInfo`, and `studentPredmetu` rows of an action's students.
    struct Student: Decodable, Sendable, Person {
        @StagText var osCislo: String?
        @StagText var titulPred: String?
        @StagText var jmeno: String?
        @StagText var prijmeni: String?
        @StagText var titulZa: String?
        @StagText var userName: String?
        /// `S` studying, `N` not, `P` interrupted.
        @StagText var stav: String?
        @StagText var nazevSp: String?
        @StagText var kodSp: String?
        @StagText var fakultaSp: String?
        /// `P` full-time, `K` combined, `D` distance.
        @StagText var formaSp: String?
        @StagInt var rocnik: Int64?
        @StagText var email: String?
        @StagText var studReferentkaPrijmeniJmeno: String?
        @StagText var studReferentkaEmail: String?
        @StagText var studReferentkaTelefon: String?
    }

    /// `kalendarItem`: one day of the academic year (`kalendar/getKalendarRoku`): the period it is
    /// in (ZS, LS teaching; ZR, ZZ, ZP, LR, LZ, LP not), its week's parity as taught that day (S
    /// even, L odd, K every, J other), and its ISO week number (not the teaching week).
    struct CalendarDay: Decodable, Sendable {
        @StagDate var datum: String?
        @StagText var typRozvrhDne: String?
        @StagText var typTydne: String?
        @StagInt var cisloTydne: Int64?
    }

    /// `harmonogramItem`: one item of the academic year's calendar.
    struct CalendarItem: Decodable, Sendable {
        @StagDate var datumOd: String?
        @StagDate var datumDo: String?
        @StagText var popis: String?
    }

    /// `kvalifikacniPrace`: a thesis.
    struct Thesis: Decodable, Sendable {
        @StagText var temaHlavni: String?
        @StagObject<Student> var student: Student?
        @StagDate var datumZadani: String?
        @StagDate var planovaneDatumOdevzdani: String?
        @StagText var typPrace: String?
        @StagText var katedra: String?
        @StagText var fakulta: String?
        @StagText var vedouciJmeno: String?
        @StagText var oponentJmeno: String?
    }

    /// `mistnostInfo`: a room.
    struct Room: Decodable, Sendable {
        @StagText var zkrBudovy: String?
        @StagText var cisloMistnosti: String?
        @StagText var typ: String?
        @StagInt var kapacita: Int64?
        @StagText var podlazi: String?
        @StagText var katedra: String?
        @StagText var adresaBudovy: String?
    }

    /// `mistnost/getBudovy` items: a building's address.
    struct Building: Decodable, Sendable {
        @StagText var zkrBudovy: String?
        @StagText var ulice: String?
        @StagText var cisloUlice: String?
        @StagText var obec: String?

        /// "Street 12, Town".
        var address: String {
            let street = [ulice, cisloUlice].compactMap { $0 }.joined(separator: " ")
            return [street, obec ?? ""].filter { !$0.isEmpty }.joined(separator: ", ")
        }
    }

    /// The ZČU canteen's day menu (its own JSON, with STAG's habits).
    struct Menu: Decodable, Sendable {
        struct Meal: Decodable, Sendable {
            @StagInt var number: Int64?
            @StagText var name: String?
            @StagList<Allergen> var allergens: [Allergen]
            @StagList<Price> var prices: [Price]
        }
        struct Allergen: Decodable, Sendable {
            @StagInt var number: Int64?
            @StagText var name: String?
        }
        struct Price: Decodable, Sendable {
            @StagText var type: String?
            @StagNumber var price: Double?
        }

        @StagList<Meal> var soups: [Meal]
        @StagList<Meal> var mainCourses: [Meal]
    }

    /// `stagUserInfo` roles: one role of the logged-in user.
    struct Role: Decodable, Sendable {
        @StagText var userName: String?
        @StagText var role: String?
        @StagText var roleNazev: String?
        @StagText var fakulta: String?
        @StagText var katedra: String?
        @StagText var osCislo: String?
        @StagInt var ucitIdno: Int64?
    }

    /// The login callback's `stagUserInfo`: the user and their roles.
    struct UserInfo: Decodable, Sendable, Person {
        @StagText var titulPred: String?
        @StagText var jmeno: String?
        @StagText var prijmeni: String?
        @StagText var titulZa: String?
        @StagText var email: String?
        @StagList<Role> var stagUserInfo: [Role]
    }
}

extension StagRow.Person {
    /// "titles first last, titles"; nil without a name.
    var personName: String? {
        let core = [titulPred, jmeno, prijmeni].compactMap { $0 }.joined(separator: " ")
        guard !core.isEmpty else { return nil }
        return titulZa.map { "\(core), \($0)" } ?? core
    }
}
