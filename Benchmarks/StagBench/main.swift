import AssistantClient
import AssistantTesting
import AsyncHTTPClient
import Foundation
import HostCore
import NIOCore
import Stag

// The Stag benchmark (issue 12), release build, run by scripts/bench-stag: `stag.timetable` for a
// semester, `stag.exams` and `stag.results`, each fresh (the fake STAG running) and from the
// cache (the fake stopped), beside the fake's own time for the same STAG requests made directly;
// and the memory of the process with the Stag plugin loaded and idle.

let runs = 30

func post(_ url: String, _ body: JSONValue) async throws {
    var request = HTTPClientRequest(url: url)
    request.method = .POST
    request.body = .bytes(ByteBuffer(bytes: body.encodedBytes()))
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    _ = try await response.body.collect(upTo: 1 << 20)
}

func get(_ url: String, cookie: String? = nil) async throws -> Int {
    var request = HTTPClientRequest(url: url)
    if let cookie { request.headers.add(name: "Cookie", value: cookie) }
    request.headers.add(name: "Accept", value: "application/json")
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
    return try await response.body.collect(upTo: 16 << 20).readableBytes
}

func time(_ body: () async throws -> Void) async rethrows -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    try await body()
    return ms(clock.now - start)
}

/// A semester of a student: 15 classes a week for 13 weeks, 40 exam terms, 60 graded subjects.
func semester() -> JSONValue {
    var rows: [JSONValue] = []
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let monday = calendar.date(from: DateComponents(year: 2026, month: 9, day: 21))!
    for week in 0..<13 {
        for slot in 0..<15 {
            let day = calendar.date(byAdding: .day, value: week * 7 + slot % 5, to: monday)!
            let c = calendar.dateComponents([.year, .month, .day], from: day)
            let hour = 8 + (slot / 5) * 2
            rows.append([
                "roakIdno": .int(Int64(600_000 + slot)), "nazev": .string("Předmět \(slot)"), "katedra": "KIV", "predmet": .string("P\(slot)"),
                "ucitel": ["ucitIdno": 1, "jmeno": "Jan", "prijmeni": "Novák", "titulPred": "Ing.", "titulZa": nil],
                "budova": "UC", "mistnost": .string("\(100 + slot)"), "typAkce": "Přednáška", "typAkceZkr": "Př",
                "hodinaSkutOd": ["value": .string(String(format: "%02d:00", hour))],
                "hodinaSkutDo": ["value": .string(String(format: "%02d:35", hour + 1))],
                "tydenZkr": "K", "datum": ["value": .string("\(c.day!).\(c.month!).\(c.year!)")], "druhAkce": "R",
                "vsichniUciteleJmenaTitulySPodily": "'Ing. Jan Novák' (100)", "nekonaSe": nil, "poznamkaRozvrhare": nil, "osCislo": "F20B0001P",
            ])
        }
    }
    var terms: [JSONValue] = []
    for i in 0..<40 {
        var term: [String: JSONValue] = ["katedra": "KIV", "casOd": "09:00:00", "casDo": "11:00:00", "budova": "UC", "mistnost": "355"]
        term["termIdno"] = .int(Int64(1_000_000 + i))
        term["predmet"] = .string("P\(i % 15)")
        term["datum"] = ["value": .string("\(1 + i % 28).1.2027")]
        term["obsazeni"] = .string("\(i % 12)")
        term["limit"] = i % 5 == 0 ? "null" : "10"
        term["ucitel"] = ["jmeno": "Karel", "prijmeni": "Svoboda", "titulPred": "Ing."]
        term["typTerminu"] = "Zkouška"
        term["deadlineDatumOdhlaseni"] = ["value": "1.1.2027 10:00"]
        term["deadlineDatumPrihlaseni"] = ["value": "1.1.2027 9:00"]
        term["osCislo"] = "F20B0001P"
        term["zapsan"] = .bool(i == 3)
        term["lzeZapsatOdepsat"] = .bool(i % 12 < 10)
        term["kodDuvoduProcNelzeZapsatOdepsat"] = "OK"
        terms.append(.object(term))
    }
    var grades: [JSONValue] = []
    var subjects: [JSONValue] = []
    for i in 0..<60 {
        let year = 2023 + i / 20
        let semester = i % 2 == 0 ? "ZS" : "LS"
        grades.append([
            "katedra": "KIV", "zkratka": .string("S\(i)"), "rok": .string(String(year)), "semestr": .string(semester), "os_cislo": "F20B0001P",
            "zk_typ_hodnoceni": "1|2|3|4", "zk_datum": "19.01.2026", "zk_hodnoceni": .string(["1", "1,5", "2", "2,5", "3", "4"][i % 6]),
            "zk_pokus": "1",
            "zk_ucit_jmeno": "Horák Martin", "zppzk_hodnoceni": nil,
        ])
        subjects.append([
            "zkratka": .string("S\(i)"), "katedra": "KIV", "nazev": .string("Předmět S\(i)"), "rok": .string(String(year)),
            "kredity": .int(Int64(3 + i % 4)), "osCislo": "F20B0001P",
        ])
    }
    return ["timetable": .array(rows), "terms": .array(terms), "grades": .array(grades), "subjects": .array(subjects)]
}

let fake = try PeerProcess(Peers.python, [Peers.script("stag_fake.py")])
let port = try await fake.announcedPort("the fake STAG")
let base = "http://127.0.0.1:\(port)"
try await post(base + "/_admin/state", semester())

let rssBefore = residentMB()
let host = try await TestHost.started(plugins: [StagPlugin()]) { $0.plugins["stag"] = ["canteen_url": .string(base + "/rest/canteen")] }
let rssIdleNoAccount = residentMB()
let started = try await host.call("stag.login", ["base_url": .string(base), "account": "bench"]).get()
_ = try await get(started["login_url"]!.stringValue!)
_ = try await host.call("stag.login.wait", ["account": "bench"]).get()
let ticket = try await host.host.vault.get("stag/bench/ticket")!
let cookie = "WSCOOKIE=\(ticket)"

let rest = base + "/ws/services/rest2/"
let common = "&stagUser=F20B0001P&lang=cs&outputFormat=JSON"
let queries: [(String, JSONValue, [String])] = [
    (
        "stag.timetable", ["from": "2026-09-21", "to": "2026-12-20", "role": "student"],
        ["rozvrhy/getRozvrhByStudent?osCislo=F20B0001P&datumOd=21.9.2026&datumDo=20.12.2026&vsechnyAkce=true" + common]
    ),
    (
        "stag.exams", [:],
        ["terminy/getTerminyProStudenta?osCislo=F20B0001P" + common, "predmety/getPredmetyByStudent?osCislo=F20B0001P&semestr=%25&rok=%25" + common]
    ),
    (
        "stag.results", [:],
        [
            "znamky/getZnamkyByStudent?osCislo=F20B0001P&rok=%25&semestr=%25" + common,
            "predmety/getPredmetyByStudent?osCislo=F20B0001P&semestr=%25&rok=%25" + common,
        ]
    ),
]

let connection = try await host.connect()
var fresh: [String: [Double]] = [:]
var floor: [String: [Double]] = [:]
var sizes: [String: Int] = [:]
for round in 0..<(runs + 3) {
    for (method, params, requests) in queries {
        // The fake's own time: the same STAG requests made directly, one after the other (the
        // plugin sends a call's requests at once, so this sum is a generous floor). The order
        // alternates so neither side always runs on a warm server.
        var bytes = 0
        var direct = 0.0
        var through = 0.0
        func measureDirect() async throws {
            direct = 0
            bytes = 0
            for path in requests {
                let clock = ContinuousClock()
                let start = clock.now
                bytes += try await get(rest + path, cookie: cookie)
                direct += ms(clock.now - start)
            }
        }
        if round % 2 == 0 {
            try await measureDirect()
            through = try await time { _ = try await connection.call(method, params: params) }
        } else {
            through = try await time { _ = try await connection.call(method, params: params) }
            try await measureDirect()
        }
        if round >= 3 {
            floor[method, default: []].append(direct)
            fresh[method, default: []].append(through)
            sizes[method] = bytes
        }
    }
}
let rssIdle = residentMB()

// Subjects by a word across the university: 10 faculties of 1 000 subjects each (about a large
// university's catalogue). The first search reads every faculty's list; later ones that day read
// the cache. Floor: the same 11 STAG requests made directly.
var catalog: [JSONValue] = []
var workplaces: [JSONValue] = []
let words = ["Úvod", "Základy", "Matematika", "Programování", "Fyzika", "Chemie", "Ekonomie", "Právo", "Filozofie", "Statistika"]
for f in 0..<10 {
    workplaces.append([
        "zkratka": .string("F\(f)"), "nazev": .string("Fakulta \(f)"), "typPracoviste": "F", "nadrazenePracoviste": "ZCU", "platnostDo": nil,
    ])
    for i in 0..<1_000 {
        catalog.append([
            "katedra": .string("K\(f)\(i % 20)"), "zkratka": .string("P\(i)"), "rok": "2026",
            "nazev": .string("\(words[(f + i) % words.count]) \(words[i % 7]) \(i)"), "semestr": nil, "vyukaZS": "A", "vyukaLS": "N",
            "maVyuku": "A", "pocetStudentu": nil, "fakulta": .string("F\(f)"),
        ])
    }
}
try await post(base + "/_admin/state", ["catalog": .array(catalog), "workplaces": .array(workplaces)])
let catalogueRequests =
    ["ciselniky/getSeznamPracovist?typPracoviste=F&zkratka=%25&lang=cs&outputFormat=JSON"]
    + (0..<10).map { "predmety/getPredmetyByFakulta?fakulta=F\($0)&rok=2026&lang=cs&outputFormat=JSON" }
var catalogueFloor: [Double] = []
var catalogueBytes = 0
for _ in 0..<5 {
    var direct = 0.0
    catalogueBytes = 0
    for path in catalogueRequests {
        let clock = ContinuousClock()
        let start = clock.now
        catalogueBytes += try await get(rest + path, cookie: cookie)
        direct += ms(clock.now - start)
    }
    catalogueFloor.append(direct)
}
var found = 0
let cold = try await time {
    found =
        try await connection.call("stag.subjects.search", params: ["query": "statistika fyzika", "year": 2026, "limit": 5])["subjects"]?
        .arrayValue?.count ?? 0
}
var warm: [Double] = []
for _ in 0..<runs {
    warm.append(
        try await time { _ = try await connection.call("stag.subjects.search", params: ["query": "statistika fyzika", "year": 2026, "limit": 5]) })
}
let other = try await time { _ = try await connection.call("stag.subjects.search", params: ["query": "chemie 12", "year": 2026, "limit": 5]) }
print(
    String(
        format:
            "\nsubject search across 10 faculties (10 000 subjects, %d KB of lists): cold %.0f ms (%d found), warm %.1f ms median / %.1f ms p90, "
            + "another word warm %.0f ms (its 5 details read); the 11 requests directly %.0f ms; cold ÷ floor %.2f×, warm ÷ floor %.3f×",
        catalogueBytes / 1024, cold, found, median(warm), p90(warm), other, median(catalogueFloor), cold / median(catalogueFloor),
        median(warm) / median(catalogueFloor)))

fake.stop()
var cached: [String: [Double]] = [:]
for round in 0..<(5 + 2) {
    for (method, params, _) in queries {
        var stale = false
        let through = try await time { stale = try await connection.call(method, params: params)["stale"] == true }
        precondition(stale, "\(method) was not served from the cache")
        if round >= 2 { cached[method, default: []].append(through) }
    }
}

print(
    "| call | STAG answer | fake STAG directly (its requests, one after the other) | fresh (median / p90) | ratio | fake stopped: from the cache "
        + "(median) |"
)
print("|---|---|---|---|---|---|")
for (method, _, _) in queries {
    let f = median(fresh[method]!)
    let d = median(floor[method]!)
    print(
        String(
            format: "| `%@` | %d KB | %.2f ms | %.2f / %.2f ms | %.2f× | %.0f ms |", method, (sizes[method] ?? 0) / 1024, d, f, p90(fresh[method]!),
            f / d,
            median(cached[method]!)))
}
print(
    String(
        format:
            "\nresident memory: %.1f MB before the host, %.1f MB with the Stag plugin loaded and idle (no account), %.1f MB idle after the runs (one "
            + "account, cache filled)",
        rssBefore, rssIdleNoAccount, rssIdle))
await connection.close()
await host.stop()
