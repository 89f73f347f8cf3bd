import AssistantTesting
import Foundation
import HostCore
import Testing

/// The redactor scans each string once against patterns built when a secret is added.
@Suite(.stopsTestHosts)
struct SecretRedactorTests {
    @Test func everyOccurrenceAnywhereIsScrubbedLongestFirst() {
        let redactor = SecretRedactor()
        for secret in ["abcd1234", "abcd1234-extended", "zz99", "x1"] { redactor.remember(secret) }
        let r = SecretRedactor.placeholder
        #expect(redactor.redact("abcd1234") == r, "the whole string")
        #expect(redactor.redact("start abcd1234") == "start \(r)", "at the end")
        #expect(redactor.redact("abcd1234 end") == "\(r) end", "at the start")
        #expect(redactor.redact("key=abcd1234-extended;") == "key=\(r);", "the longer secret whole, not its prefix")
        #expect(
            redactor.redact("Příliš žluťoučký kůň zz99 a zz99") == "Příliš žluťoučký kůň \(r) a \(r)",
            "after multi-byte text, twice")
        #expect(redactor.redact("abcd123") == "abcd123", "a near miss stays")
        #expect(redactor.redact("abc") == "abc", "shorter than any secret")
        #expect(redactor.redact("x1 is too short to scrub from text") == "x1 is too short to scrub from text")
        #expect(redactor.redact(["password": "x1", "items": ["a zz99 b"]] as JSONValue) == ["password": .string(r), "items": [.string("a \(r) b")]])
    }

    /// A caller that puts guesses into its own text learns nothing: a guess that is a stored
    /// secret comes back as written, like any other guess. Every other secret, and the logs,
    /// stay scrubbed.
    @Test func aCallersGuessComesBackAsWrittenWhateverItMatches() {
        let redactor = SecretRedactor()
        redactor.remember("hunter2-pass")
        redactor.remember("other-secret-9")
        let r = SecretRedactor.placeholder
        #expect(redactor.redact("pw hunter2-pass") == "pw \(r)", "unnamed: scrubbed")
        redactor.noteCallerText("guesses: 123456 hunter2-pass qwerty")
        #expect(redactor.redact("guesses: 123456 hunter2-pass qwerty") == "guesses: 123456 hunter2-pass qwerty")
        #expect(redactor.redact("upstream said other-secret-9") == "upstream said \(r)", "a secret no caller named stays scrubbed")
        #expect(redactor.redactForLog("log: hunter2-pass") == "log: \(r)", "logs scrub every secret")
        // A new value under the same secret is not one the caller named.
        redactor.rememberParameter("hunter2-pass")
        redactor.remember("fresh-token-77")
        #expect(redactor.redact("fresh-token-77") == r)
    }

    /// Through the socket: a thousand guesses in a notice's body, one of them the SMTP password,
    /// come back exactly as sent, in the answer and in the list; nothing marks the hit.
    @Test func aThousandGuessesInANoticeRevealNoSecret() async throws {
        let host = try await TestHost.started()
        _ = try await host.call("vault.set", ["name": "host/smtp/password", "secret": "hunter2-pass"]).get()
        var guesses = (0..<999).map { "guess-\($0)" }
        guesses.insert("hunter2-pass", at: 517)
        let body = guesses.joined(separator: " ")
        let sent = try await host.call("notifications.send", ["title": "guesses", "body": .string(body)]).get()
        #expect(sent["body"] == .string(body))
        let listed = try await host.call("notifications.list", ["topic": "host.manual"]).get()
        #expect(listed.arrayValue?.first?["body"] == .string(body))
        await host.stop()
    }

    /// The daemon scrubs a result while writing it: the same bytes as redacting, then encoding.
    @Test func scrubbingWhileWritingWritesWhatRedactingFirstDoes() {
        let redactor = SecretRedactor()
        for secret in ["abcd1234", "abcd1234-extended", "zz99", "x1"] { redactor.remember(secret) }
        let r = SecretRedactor.placeholder
        let value: JSONValue = [
            "password": "x1", "Password": "plain", "apiKey": "", "token": 7, "note": "a zz99 b abcd1234-extended",
            "items": [["secret": "s", "title": "abcd1234"], "zz99", 1, .null, ["nested": ["deep": "x zz99"]]],
            "abcd1234": "a secret as a key", "plain": "nothing here", "číslo": "žluťoučký zz99",
        ]
        let expected: JSONValue = [
            "password": .string(r), "Password": .string(r), "apiKey": "", "token": 7, "note": .string("a \(r) b \(r)"),
            "items": [["secret": .string(r), "title": .string(r)], .string(r), 1, .null, ["nested": ["deep": .string("x \(r)")]]],
            .init(stringLiteral: r): "a secret as a key", "plain": "nothing here", "číslo": .string("žluťoučký \(r)"),
        ]
        #expect(redactor.redact(value) == expected)
        #expect(value.encodedBytes(scrubbing: redactor.scrubber()) == expected.encodedBytes())
        #expect(JSONValue.responseBytes(id: 1, result: value, scrubbing: redactor.scrubber()) == JSONValue.responseBytes(id: 1, result: expected))
        // With no secret known, credential members are still blanked and nothing else changes.
        let fresh = SecretRedactor()
        #expect(value.encodedBytes(scrubbing: fresh.scrubber()) == fresh.redact(value).encodedBytes())
        #expect(fresh.redact(value)["note"] == "a zz99 b abcd1234-extended")
    }

    @Test func secretsSharingTheirFirstBytesAreEachFound() {
        let redactor = SecretRedactor()
        let secrets = (0..<50).map { String(format: "aaaa%04d", $0) }
        for secret in secrets { redactor.remember(secret) }
        for secret in secrets {
            #expect(redactor.redact("→\(secret)←") == "→\(SecretRedactor.placeholder)←", "\(secret)")
        }
        #expect(redactor.redact("aaaa") == "aaaa")
    }

    /// Secrets passed as parameters are kept among the most recent few hundred, vault secrets
    /// for good: a client sending endless distinct secrets cannot grow the daemon without bound.
    @Test func parameterSecretsAreBoundedAndVaultSecretsStay() {
        let redactor = SecretRedactor()
        redactor.remember("vault-secret-0001")
        let count = SecretRedactor.parameterSecretsKept + 44
        for i in 0..<count { redactor.rememberParameter(String(format: "param-secret-%04d", i)) }
        #expect(redactor.redact("a vault-secret-0001 b") == "a «redacted» b")
        #expect(redactor.redact("x param-secret-0000 y") == "x param-secret-0000 y", "the oldest parameter secret was let go")
        #expect(redactor.redact("x param-secret-0043 y") == "x param-secret-0043 y")
        #expect(redactor.redact("x param-secret-0044 y") == "x «redacted» y", "the most recent are kept")
        #expect(redactor.redact("x param-secret-\(String(format: "%04d", count - 1)) y") == "x «redacted» y")
        // A parameter secret that is then stored in the vault stays for good.
        redactor.rememberParameter("stored-later-123")
        redactor.remember("stored-later-123")
        for i in 0..<SecretRedactor.parameterSecretsKept { redactor.rememberParameter("filler-\(i)-xyz") }
        #expect(redactor.redact("stored-later-123") == "«redacted»")
    }
}
