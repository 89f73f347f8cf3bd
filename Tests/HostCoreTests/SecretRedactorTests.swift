import Foundation
import HostCore
import Testing

/// The redactor scans each string once against patterns built when a secret is added.
struct SecretRedactorTests {
    @Test func everyOccurrenceAnywhereIsScrubbedLongestFirst() {
        let redactor = SecretRedactor()
        for secret in ["abcd1234", "abcd1234-extended", "zz99", "x1"] { redactor.remember(secret) }
        let r = SecretRedactor.placeholder
        #expect(redactor.redact("abcd1234") == r, "the whole string")
        #expect(redactor.redact("start abcd1234") == "start \(r)", "at the end")
        #expect(redactor.redact("abcd1234 end") == "\(r) end", "at the start")
        #expect(redactor.redact("key=abcd1234-extended;") == "key=\(r);", "the longer secret whole, not its prefix")
        #expect(redactor.redact("Příliš žluťoučký kůň zz99 a zz99") == "Příliš žluťoučký kůň \(r) a \(r)", "after multi-byte text, twice")
        #expect(redactor.redact("abcd123") == "abcd123", "a near miss stays")
        #expect(redactor.redact("abc") == "abc", "shorter than any secret")
        #expect(redactor.redact("x1 is too short to scrub from text") == "x1 is too short to scrub from text")
        #expect(redactor.redact(["password": "x1", "items": ["a zz99 b"]] as JSONValue) == ["password": .string(r), "items": [.string("a \(r) b")]])
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
}
