import AssistantTesting
import Foundation
import HostCore
import Testing

/// Secrets passed as parameters are kept among the most recent few hundred; vault secrets for
/// good. A client sending endless distinct secrets cannot grow the daemon without bound.
struct RedactorTests {
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
