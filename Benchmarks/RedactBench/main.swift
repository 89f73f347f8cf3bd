import AssistantTesting
import Foundation
import HostCore

// Issue 9's redaction figure (release build, `swift run -c release redact-bench`): a 10 000-item
// result (5 strings each) with 50 secrets remembered, redacted and encoded, beside
// JSONSerialization encoding the same value, and beside the redactor this one replaced (a copy
// of every secret, sorted, for every string), run in the same process.

func hex(_ n: Int) -> String { String((0..<n).map { _ in "0123456789abcdef".randomElement()! }) }

let secrets = (0..<50).map { _ in hex(32) }
let redactor = SecretRedactor()
for secret in secrets { redactor.remember(secret) }

let items: [JSONValue] = (0..<10_000).map { i in
    [
        "id": .string("item-\(i)"), "title": .string("Lecture \(i % 40) in room UC-\(100 + i % 300)"),
        "teacher": .string("Ing. Jan Novák, Ph.D."),
        "note": .string(i % 1000 == 0 ? "token \(secrets[i % 50]) leaked" : "Sraz před místností UN 306."),
        "when": .string("2026-11-\(10 + i % 20)T09:20"),
    ]
}
let value = JSONValue.object(["items": .array(items)])
let foundation: [String: Any] = ["items": items.map { item in item.objectValue!.mapValues { $0.stringValue! } }]

/// The redactor before: every string copied the set of secrets and sorted it.
func previousRedact(_ text: String, _ known: Set<String>) -> String {
    var result = text
    for secret in known.sorted(by: { $0.count > $1.count }) where secret.count >= 4 && result.contains(secret) {
        result = result.replacingOccurrences(of: secret, with: SecretRedactor.placeholder)
    }
    return result
}

func previousRedact(_ value: JSONValue, _ known: Set<String>) -> JSONValue {
    switch value {
    case .string(let s): .string(previousRedact(s, known))
    case .array(let a): .array(a.map { previousRedact($0, known) })
    case .object(let o): .object(o.mapValues { previousRedact($0, known) })
    default: value
    }
}

let clock = ContinuousClock()
var now: [Double] = []
var before: [Double] = []
var serialization: [Double] = []
var encodeOnly: [Double] = []
var parsed: [Double] = []
var parsedByFoundation: [Double] = []
var scrubbedWhileWriting: [Double] = []
// The same reply parsed, as a client (and the daemon, for requests) parses it.
let encoded = value.encodedBytes()
let encodedData = Data(encoded)
let known = Set(secrets)
var check = 0
for round in 0..<13 {
    var start = clock.now
    let redacted = redactor.redact(value)
    let bytes = redacted.encodedBytes()
    let a = ms(clock.now - start)
    start = clock.now
    let scrubbed = value.encodedBytes(scrubbing: redactor.scrubber())
    let w = ms(clock.now - start)
    precondition(scrubbed == bytes, "scrubbing while writing writes what redacting first does")
    start = clock.now
    let plain = value.encodedBytes()
    let e = ms(clock.now - start)
    start = clock.now
    let old = previousRedact(value, known).encodedBytes()
    let b = ms(clock.now - start)
    start = clock.now
    let data = try JSONSerialization.data(withJSONObject: foundation)
    let j = ms(clock.now - start)
    start = clock.now
    let reparsed = try JSONValue.decode(bytes: encoded)
    let p = ms(clock.now - start)
    start = clock.now
    let reparsedByFoundation = try JSONSerialization.jsonObject(with: encodedData)
    let pf = ms(clock.now - start)
    precondition(reparsed == value && (reparsedByFoundation as? [String: Any])?.count == 1, "both parsers read the reply")
    check &+= bytes.count &+ plain.count &+ old.count &+ data.count
    precondition(bytes.count == old.count, "both redactors scrub the same")
    if round >= 3 {
        now.append(a)
        scrubbedWhileWriting.append(w)
        encodeOnly.append(e)
        before.append(b)
        serialization.append(j)
        parsed.append(p)
        parsedByFoundation.append(pf)
    }
}
print("| 10 000 items × 5 strings, 50 secrets | median |")
print("|---|---|")
print(String(format: "| scrubbed while written (the daemon's path) | %.1f ms |", median(scrubbedWhileWriting)))
print(String(format: "| redact, then encode (this redactor) | %.1f ms |", median(now)))
print(String(format: "| encode only (no redaction) | %.1f ms |", median(encodeOnly)))
print(String(format: "| JSONSerialization.data, the same value | %.1f ms |", median(serialization)))
print(String(format: "| redact + encode (the previous redactor) | %.1f ms |", median(before)))
print(String(format: "| parse the encoded value (JSONValue.decode) | %.1f ms |", median(parsed)))
print(String(format: "| JSONSerialization.jsonObject, the same bytes | %.1f ms |", median(parsedByFoundation)))
print("(checksum \(check))")
