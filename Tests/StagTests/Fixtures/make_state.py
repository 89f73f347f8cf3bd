"""Writes state.json, the fake STAG's data for the tests, shaped as the reference's fixtures
(../shared/reference/stag-api.md §3.4, §3.6, §3.11, §3.13). Run from the package root."""
import json


def teacher(idno, j, p, pred=None, za=None):
    return {"ucitIdno": idno, "jmeno": j, "prijmeni": p, "titulPred": pred, "titulZa": za, "platnost": "A", "zamestnanec": "A", "podilNaVyuce": 100}


def row(roak, subj, name, typ, typz, day, od, do, budova, mistnost, tz, teachers, podily, os_cislo, druh="R", nekona=None, ref=None):
    kat, code = subj.split("/")
    return {"roakIdno": roak, "nazev": name, "katedra": kat, "predmet": code, "statut": "A" if druh == "R" else None,
            "ucitIdno": teachers[0]["ucitIdno"], "ucitel": teachers[0], "rok": "2026", "budova": budova, "mistnost": mistnost,
            "kapacitaMistnosti": 248, "planObsazeni": 390, "obsazeni": 383, "typAkce": typ, "typAkceZkr": typz, "semestr": "ZS",
            "platnost": "A", "den": "Pondělí", "denZkr": "Po", "vyucJazyk": None, "hodinaOd": 3 if druh == "R" else None,
            "hodinaDo": 4 if druh == "R" else None, "pocetVyucHodin": 2 if druh == "R" else None,
            "hodinaSkutOd": {"value": od}, "hodinaSkutDo": {"value": do}, "tydenOd": 39, "tydenDo": 52,
            "tyden": {"K": "Každý", "S": "Sudý", "L": "Lichý", "J": "Jiný"}[tz],
            "tydenZkr": tz, "grupIdno": 47921 if druh == "R" else None, "jeNadrazena": "N", "maNadrazenou": "N", "kontakt": None,
            "krouzky": "A1A1a" if druh == "R" else None, "casovaRada": "ZCU" if druh == "R" else None, "datum": {"value": day},
            "datumOd": None if druh == "R" else {"value": day}, "datumDo": None if druh == "R" else {"value": day}, "druhAkce": druh,
            "vsichniUciteleUcitIdno": ", ".join(str(t["ucitIdno"]) for t in teachers),
            "vsichniUciteleJmenaTituly": ", ".join(
                f"{t['titulPred'] + ' ' if t['titulPred'] else ''}{t['jmeno']} {t['prijmeni']}{', ' + t['titulZa'] if t['titulZa'] else ''}" for t in teachers),
            "vsichniUciteleJmenaTitulySPodily": podily, "vsichniUcitelePrijmeni": ", ".join(t["prijmeni"] for t in teachers),
            "referencedIdno": ref if ref else roak, "poznamkaRozvrhare": None, "nekonaSe": nekona, "owner": "NOVAKPE", "zakazaneAkce": None,
            "osCislo": os_cislo}


novak = teacher(241911, "Jan", "Novák", "RNDr.", "Ph.D.")
b = teacher(54539, "A", "B", "Ing.", "Ph.D.")
d = teacher(294708, "C", "D")
timetable = [
    row(643817, "KMA/MA1", "Matematická analýza 1", "Přednáška", "Př", "23.11.2026", "09:20", "11:00", "US", "217", "K", [novak],
        "'RNDr. Jan Novák, Ph.D.' (100)", "F20B0001P"),
    row(643900, "KIV/PPA1", "Počítače a programování 1", "Cvičení", "Cv", "24.11.2026", "13:00", "14:35", "UC", "326", "S", [b, d],
        "'Ing. A B, Ph.D.' (100), 'C D' (100)", "F20B0001P", nekona="24.11.2026: Koná se (proběhne v EP120)"),
    row(None, "KIV/VSS", "Vývoj softwarových systémů", "Zkouška", "Zkouška", "26.11.2026", "10:00", "14:00", "UC", "355", "J", [novak],
        "'RNDr. Jan Novák, Ph.D.'", "F20B0001P", druh="Z", ref=1118482),
    row(643817, "KMA/MA1", "Matematická analýza 1", "Přednáška", "Př", "30.11.2026", "09:20", "11:00", "US", "217", "K", [novak],
        "'RNDr. Jan Novák, Ph.D.' (100)", "F20B0001P"),
    row(700001, "KPO/TP", "Teorie práva", "Přednáška", "Př", "25.11.2026", "08:25", "10:00", "PR", "101", "L",
        [teacher(283755, "Petr", "Dvořák", "JUDr.")], "'JUDr. Petr Dvořák' (100)", None),
]
timetable[-1]["ucitIdno"] = 283755

svoboda = {"ucitIdno": 59289, "jmeno": "Karel", "prijmeni": "Svoboda", "titulPred": "Ing.", "titulZa": "Ph.D.", "platnost": "A", "zamestnanec": "A",
           "katedra": "KIV", "pracovisteDalsi": "PC", "email": "k@example.cz", "telefon": None, "telefon2": None, "url": None}


def term(idno, subj, day, od, do, obs, limit, zapsan, lze, kod="OK", text=None, deadline_off="25.11.2026 10:00", deadline_on="25.11.2026 9:00",
         typ="Zkouška"):
    kat, code = subj.split("/")
    return {"termIdno": idno, "ucitIdno": 59289, "ucitel": svoboda, "predmet": code, "katedra": kat, "rok": "2026", "semestr": "ZS",
            "datum": {"value": day}, "obsazeni": obs, "limit": limit, "casOd": od, "casDo": do, "budova": "UC", "mistnost": "355",
            "kontakt": None, "poznamka": "Sraz bude před místností UN 306." if idno == 1118482 else None, "opravny": "N",
            "deadlineDatumOdhlaseni": {"value": deadline_off}, "deadlineDatumPrihlaseni": {"value": deadline_on}, "zacatekPrihlasovani": None,
            "platnost": "A", "typTerminu": typ, "grteIdno": None, "osCislo": "F20B0001P", "zapsan": zapsan, "lzeZapsatOdepsat": lze,
            "kodDuvoduProcNelzeZapsatOdepsat": kod, "textDuvoduProcNelzeZapsatOdepsat": text, "popisDuvoduProcNelzeZapsatOdepsat": None}


terms = [
    term(1118482, "KIV/VSS", "26.11.2026", "10:00:00", "14:00:00", "1", "10", True, True),
    term(1118483, "KIV/DB1", "3.12.2026", "9:00:00", "11:00:00", "3", "10", False, True, deadline_off="2.12.2026 9:00", deadline_on="2.12.2026 9:00"),
    term(1118484, "KMA/MA1", "4.12.2026", "08:00:00", "10:00:00", "10", "10", False, False, kod="PLNO", text="Termín je plně obsazen."),
    term(1118485, "KMA/MA1", "10.12.2026", "08:00:00", "10:00:00", "2", "null", False, False, kod="PRIHLASOVANI_UZAVRENO",
         text="Přihlašování skončilo.", typ="Zápočet"),
]


def grade(subj, rok, sem, hodn, datum="19.01.2026", pokus="1", typ="1|2|3|4", zppzk=None):
    kat, code = subj.split("/")
    g = {"katedra": kat, "zkratka": code, "rok": rok, "semestr": sem, "os_cislo": "F20B0001P", "jmeno": "Jana", "prijmeni": "NOVÁKOVÁ", "titul": "",
         "nesplnene_prerekvizity": "", "predmetUznany": "N", "zk_tyhoidno": 1, "zk_hodnidno": 1 if hodn else None, "zk_typ_hodnoceni": typ,
         "zk_datum": datum if hodn else "", "zk_hodnoceni": hodn, "zk_body": "", "zk_pokus": pokus if hodn else "0",
         "zk_ucit_idno": "17895" if hodn else "", "zk_jazyk": "CZ" if hodn else "", "zk_ucit_jmeno": "Horák Martin" if hodn else "",
         "zppzk_tyhoidno": None, "zppzk_hodnidno": None, "zppzk_typ_hodnoceni": None, "zppzk_datum": None, "zppzk_hodnoceni": None,
         "zppzk_pokus": None, "zppzk_ucit_idno": None, "zppzk_ucit_jmeno": None, "zppzk_uznan": None,
         "stavAbsolvovani": "A" if hodn not in ("", "4", "N") else "NX"}
    if zppzk:
        g.update({"zppzk_tyhoidno": 2, "zppzk_hodnidno": 5, "zppzk_typ_hodnoceni": "", "zppzk_datum": "19.12.2025", "zppzk_hodnoceni": zppzk,
                  "zppzk_pokus": "1", "zppzk_ucit_idno": "241975", "zppzk_ucit_jmeno": "Král Martin", "zppzk_uznan": "N"})
    return g


grades = [
    grade("KIV/DB1", "2025", "ZS", "1", zppzk="S"),
    grade("KMA/MA1", "2025", "ZS", "2,5", datum="02.02.2026", pokus="2"),
    grade("KIV/PPA1", "2025", "ZS", "4", datum="20.01.2026"),
    grade("KFY/FYI", "2025", "ZS", "S", typ="S|N", datum="18.12.2025"),
    grade("KIV/UPA", "2025", "LS", "1,5", datum="10.06.2026"),
    grade("KIV/OS", "2025", "LS", ""),
    grade("KMA/MA2", "2025", "LS", "N", typ="S|N", datum="05.06.2026"),
]
subjects = [{"zkratka": c.split("/")[1], "katedra": c.split("/")[0], "nazev": n, "rok": r, "kredity": k, "uznano": "N", "statut": "A", "osCislo": "F20B0001P"}
            for c, n, r, k in [
                ("KIV/DB1", "Databázové systémy 1", "2025", 6), ("KMA/MA1", "Matematická analýza 1", "2025", 5),
                ("KIV/PPA1", "Počítače a programování 1", "2025", 4), ("KFY/FYI", "Fyzika pro informatiky", "2025", 3),
                ("KIV/UPA", "Úvod do počítačových architektur", "2025", 6), ("KIV/OS", "Operační systémy", "2025", 5),
                ("KMA/MA2", "Matematická analýza 2", "2025", 4), ("KIV/VSS", "Vývoj softwarových systémů", "2026", 5),
                ("KMA/MA1", "Matematická analýza 1", "2026", 5)]]
subject_info = {"KIV/UPA": {
    "katedra": "KIV", "zkratka": "UPA", "rok": "2026", "nazev": "Úvod do počítačových architektur", "nazevDlouhy": "Úvod do počítačových architektur",
    "maVyuku": "A", "vyukaZS": "A", "vyukaLS": "N", "jakCastoJeNabizen": "K", "jakCastoJeNabizenUpresneni": None, "kreditu": 6, "viceZapis": "NE",
    "minObsazeni": 10, "garanti": "'Dr. Ing. Karel Dvořák'", "garantiSPodily": "'Dr. Ing. Karel Dvořák'", "garantiUcitIdno": "53378",
    "prednasejici": "'doc. Ing. Jan Novák, CSc.'", "prednasejiciSPodily": "'doc. Ing. Jan Novák, CSc.' (100)", "prednasejiciUcitIdno": "17809",
    "cvicici": "'Dr. Ing. Karel Dvořák', 'Ing. Tomáš Černý, Ph.D.', 'doc. Ing. Jan Novák, CSc.'",
    "cviciciSPodily": "'Dr. Ing. Karel Dvořák' (100), 'Ing. Tomáš Černý, Ph.D.' (100), 'doc. Ing. Jan Novák, CSc.' (100)",
    "cviciciUcitIdno": "53378, 247089, 17809", "seminarici": "", "seminariciSPodily": "", "seminariciUcitIdno": "", "schvalujiciUznani": "",
    "schvalujiciUznaniUcitIdno": "", "examinatori": "", "examinatoriUcitIdno": "", "podminujiciPredmety": "", "vylucujiciPredmety": "KIV/UPA-E",
    "podminujePredmety": "", "literatura": "'Patterson, David A. Computer organization and design. 4th ed. 2009.'", "nahrazPredmety": "",
    "metodyVyucovaci": "U tohoto předmětu se již používá nový QRAM.", "metodyHodnotici": "U tohoto předmětu se již používá nový QRAM.",
    "akreditovan": "A", "jednotekPrednasek": 3, "jednotkaPrednasky": "HOD/TYD", "jednotekCviceni": 2, "jednotkaCviceni": "HOD/TYD",
    "jednotekSeminare": 0, "jednotkaSeminare": "HOD/TYD", "anotace": "Cílem předmětu je seznámit studenty se základními typy architektur.",
    "typZkousky": "Zkouška", "maZapocetPredZk": "ANO", "formaZkousky": "Kombinovaná", "pozadavky": "Podmínky pro získání zápočtu.",
    "prehledLatky": "1. Klasifikace výpočetních systémů.", "predpoklady": "Základní znalosti z fyziky.", "predmetUrl": None,
    "vyucovaciJazyky": "Čeština", "poznamka": None, "praxePocetDnu": "0"}}
teachers = {"283755": {"ucitIdno": 283755, "jmeno": "Petr", "prijmeni": "Dvořák", "titulPred": "JUDr.", "titulZa": None, "platnost": "A",
                       "zamestnanec": "A", "katedra": "KPO", "pracovisteDalsi": "KPO", "email": "dvorakp@fpr.zcu.cz", "telefon": None,
                       "telefon2": None, "url": None, "phdSkolitel": "N", "zkrBudovy": "PR", "cisloMistnosti": "312"}}
students = {"F20B0001P": {"osCislo": "F20B0001P", "jmeno": "Jana", "prijmeni": "NOVÁKOVÁ", "titulPred": None, "titulZa": None, "stav": "S",
                          "userName": "novakovj", "stprIdno": "2210", "nazevSp": "Softwarové inženýrství", "fakultaSp": "FAV",
                          "kodSp": "B0613A140037", "formaSp": "P", "typSp": "B", "typSpKey": "7", "mistoVyuky": "P", "rocnik": "2",
                          "financovani": "1", "oborKomb": "SWI23bp", "oborIdnos": "4610", "email": "novakovj@students.zcu.cz",
                          "cisloKarty": "042b15b2b07a80", "pohlavi": "Z", "evidovanBankovniUcet": "N", "studReferentkaUsername": "NOVAKOVA",
                          "studReferentkaUcitidno": "54602", "studReferentkaEmail": "novakova@fav.zcu.cz", "studReferentkaTelefon": "377630000",
                          "studReferentkaPrijmeniJmeno": "Nováková Petra"}}
action_students = {"700001": [
    {"osCislo": "R21P0101P", "jmeno": "Adam", "prijmeni": "Chalupa", "titulPred": None, "titulZa": None, "fakultaSp": "FPR", "nazevSp": "Právo", "rocnik": "1"},
    {"osCislo": "R21P0102P", "jmeno": "Eva", "prijmeni": "Čechová", "titulPred": None, "titulZa": None, "fakultaSp": "FPR", "nazevSp": "Právo", "rocnik": "1"},
    {"osCislo": "R21P0103P", "jmeno": "Jan", "prijmeni": "Hrubý", "titulPred": None, "titulZa": None, "fakultaSp": "FPR", "nazevSp": "Právo", "rocnik": "2"},
    {"osCislo": "R21P0104P", "jmeno": "Ivo", "prijmeni": "Cibulka", "titulPred": "Bc.", "titulZa": None, "fakultaSp": "FPR", "nazevSp": "Právo", "rocnik": "3"},
    {"osCislo": "R21P0105P", "jmeno": "Petra", "prijmeni": "Řezníčková", "titulPred": None, "titulZa": None, "fakultaSp": "FPR", "nazevSp": "Právo", "rocnik": "1"},
    {"osCislo": "R21P0106P", "jmeno": "Olga", "prijmeni": "Rybová", "titulPred": None, "titulZa": None, "fakultaSp": "FPR", "nazevSp": "Právo", "rocnik": "1"}]}
theses = [{"ucitIdno": 283755, "temaHlavni": "Odpovědnost za škodu v pracovním právu",
           "student": {"osCislo": "R21P0103P", "jmeno": "Jan", "prijmeni": "Hrubý", "titulPred": None, "titulZa": None, "userName": "hruby"},
           "datumZadani": {"value": "1.10.2025"}, "planovaneDatumOdevzdani": {"value": "30.4.2027"}, "katedra": "KPO", "typPrace": "Diplomová práce",
           "fakulta": "FPR", "vedouciJmeno": "JUDr. Petr Dvořák", "oponentJmeno": "doc. JUDr. Karel Malý", "skolitelJmeno": None,
           "konzultantZUnivJmeno": None, "oborKombinaceStudenta": "Právo"}]
harmonogram = {"2026": [
    {"datumOd": {"value": "21.9.2026"}, "datumDo": None, "popis": "Začíná: Zimní semestr"},
    {"datumOd": {"value": "1.9.2026"}, "datumDo": {"value": "18.9.2026"}, "popis": "Zápis do 1. ročníku"}]}
canteen = {"B0": {"soups": [{"number": 1, "name": "Hovězí vývar s nudlemi", "allergens": [{"number": 1, "name": "Lepek", "description": "obiloviny"},
                                                                                      {"number": 9, "name": "Celer", "description": "celer"}],
                              "prices": [{"type": "Student", "price": 15.0}, {"type": "Employee", "price": 25.0}, {"type": "External", "price": 35.0}]}],
                   "mainCourses": [{"number": 2, "name": "Svíčková na smetaně, knedlík", "allergens": [{"number": 7, "name": "Mléko", "description": "mléko"}],
                                    "prices": [{"type": "Student", "price": 62.5}, {"type": "Employee", "price": 85.0}, {"type": "External", "price": 110.0}]}]}}
# Teachers found by name or department (ucitel/najdiUcitelePodleJmena, ucitel/getUciteleKatedry): the
# getUcitelInfo shape, as Tests/peers/stag-reference-additions.md notes.
for t in [dict(novak, katedra="KMA", email="novak@kma.zcu.cz"), dict(svoboda),
          teacher(241912, "Jana", "Nováková", "Mgr.") | {"katedra": "KIV", "email": None},
          teacher(241913, "Jan", "Novak") | {"katedra": "KIV", "email": "jnovak@kiv.zcu.cz", "platnost": "N"}]:
    teachers[str(t["ucitIdno"])] = t

# mistnost/getBudovy and mistnost/getMistnostiInfo (field names as public clients read them).
buildings = [
    {"zkrBudovy": "UC", "lokalita": "B", "url": None, "obec": "Plzeň", "ulice": "Univerzitní", "cisloUlice": "20", "gpsBudovaX": 13.352, "gpsBudovaY": 49.725},
    {"zkrBudovy": "US", "lokalita": "B", "url": None, "obec": "Plzeň", "ulice": "Univerzitní", "cisloUlice": "12", "gpsBudovaX": 13.351, "gpsBudovaY": 49.726},
]


def room(budova, cislo, typ, kapacita, podlazi, katedra):
    return {"zkrBudovy": budova, "cisloMistnosti": cislo, "typ": typ, "typCiselne": 1, "kapacita": kapacita, "podlazi": podlazi,
            "pracoviste": katedra, "katedra": katedra, "adresaBudovy": "Univerzitní 20, Plzeň", "poznamka": None, "provozDo": None,
            "serial": None, "urlMistnost": None, "budovaGPSX": 13.352, "budovaGPSY": 49.725}


rooms = [room("UC", "326", "Učebna", 30, "3", "KIV"), room("UC", "355", "Učebna", 60, "3", "KIV"),
         room("UC", "336", "Laboratoř", "20", "3", "KIV"), room("US", "217", "Posluchárna", 248, "2", "KMA")]

# predmety/najdiPredmety and getPredmetyByFakulta rows (katedra, zkratka, rok, nazev, the A/N teaching
# flags set, the rest null, as STAG gives them); "fakulta" only tells the fake whose list a row is in.
catalog = [{"katedra": k, "zkratka": z, "rok": "2026", "nazev": n, "semestr": None, "vyukaZS": zs, "vyukaLS": ls, "maVyuku": "A",
            "pocetStudentu": None, "fakulta": f}
           for f, k, z, n, zs, ls in [
               ("FAV", "KIV", "UPA", "Úvod do počítačových architektur", "A", "N"), ("FAV", "KIV", "PPA1", "Počítače a programování 1", "A", "N"),
               ("FAV", "KIV", "VSS", "Vývoj softwarových systémů", "N", "A"), ("FAV", "KMA", "MA1", "Matematická analýza 1", "A", "N"),
               ("FF", "KFI", "UFI", "Úvod do filozofie", "A", "A"), ("FPR", "KPO", "TP", "Teorie práva", "A", "N")]]

# ciselniky/getSeznamPracovist rows: the faculties (one renamed: its old name has ended) and two departments.
workplaces = [{"zkratka": z, "nazev": n, "typPracoviste": t, "nadrazenePracoviste": p, "platnostDo": end}
              for z, n, t, p, end in [
                  ("FAV", "Fakulta aplikovaných věd", "F", "ZCU", None), ("FF", "Fakulta filozofická", "F", "ZCU", None),
                  ("FPR", "Fakulta právnická", "F", "ZCU", None), ("FHS", "Fakulta humanitních studií", "F", "ZCU", {"value": "31.8.2013"}),
                  ("KIV", "Katedra informatiky a výpočetní techniky", "K", "FAV", None), ("KMA", "Katedra matematiky", "K", "FAV", None)]]

# The students' e-mails for stag.students.mail (one has none).
for student, email in zip(action_students["700001"], ["chalupa@students.zcu.cz", "cechova@students.zcu.cz", "hruby@students.zcu.cz",
                                                     "cibulka@students.zcu.cz", "reznickova@students.zcu.cz", None]):
    student["email"] = email

# The dual user's teaching (predmety/getPredmetyByUcitel) and the terms of it (getTerminyZkousek:
# the rows are terms, not a student's view; osCislo here only keeps them out of the student's list).
teacher_subjects = {"283755": [{"katedra": "KPO", "zkratka": "TP", "nazev": "Teorie práva", "rok": "2026", "semestr": "ZS"}]}
dvorak = {"ucitIdno": 283755, "jmeno": "Petr", "prijmeni": "Dvořák", "titulPred": "JUDr.", "titulZa": None}
for idno, day, od, obs, limit in [(2200001, "15.1.2027", "9:00", "18", "20"), (2200002, "22.1.2027", "13:00", "20", "20")]:
    t = term(idno, "KPO/TP", day, od, "11:00" if od == "9:00" else "15:00", obs, limit, False, True)
    t.update({"ucitIdno": 283755, "ucitel": dvorak, "budova": "PR", "mistnost": "101", "osCislo": "R21P0101P"})
    terms.append(t)

state = {"timetable": timetable, "terms": terms, "grades": grades, "subjects": subjects, "subject_info": subject_info, "teachers": teachers,
         "students": students, "action_students": action_students, "theses": theses, "harmonogram": harmonogram, "canteen": canteen,
         "buildings": buildings, "rooms": rooms, "catalog": catalog, "teacher_subjects": teacher_subjects,
         "workplaces": workplaces}
with open("Tests/StagTests/Fixtures/state.json", "w") as out:
    json.dump(state, out, ensure_ascii=False, indent=1)
