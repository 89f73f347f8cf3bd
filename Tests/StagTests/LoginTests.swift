import AssistantTesting
import Foundation
import HostCore
import Testing

@testable import Stag

/// Logging in: the browser flow through the loopback capture (driven by an HTTP client that
/// follows STAG's 302), a cancelled login, the `+`-as-space repair, two roles, a pasted callback
/// or ticket, the password login, and the ticket never leaving the vault.
@Suite(.stopsTestHosts, .enabled(if: Peers.shouldRun(pythonModule: "json"))) struct LoginTests {
    @Test func browserLoginCapturesTheTicketAndEveryRole() async throws {
        let bench = try await StagBench.start()
        try await bench.fake.admin("login", ["user": "dual", "mode": "normal"])
        let started = try await bench.host.call("stag.login", ["base_url": .string(bench.fake.base + "/ws/")]).get()
        #expect(started["account"] == "127.0.0.1", "a base_url account is named after its host")
        #expect(started["expires_in_s"] == 600)
        let loginURL = try require(started["login_url"]?.stringValue)
        let components = try require(URLComponents(string: loginURL))
        #expect(components.path == "/ws/login")
        let original = try require(components.queryItems?.first { $0.name == "originalURL" }?.value)
        #expect(original.hasPrefix("http://127.0.0.1:") && !original.contains(String(bench.fake.port)), "the callback is the loopback capture")
        #expect(components.queryItems?.first { $0.name == "longTicket" }?.value == "1")

        let page = try await Browser.open(loginURL)
        #expect(page.status == 200)
        #expect(page.body.contains("You can close this tab"))
        let done = try await bench.host.call("stag.login.wait", ["account": "127.0.0.1"]).get()
        #expect(done["state"] == "logged_in")

        let status = try await bench.host.call("stag.status").get()
        let account = try require(status["accounts"]?.arrayValue?.first)
        #expect(account["logged_in"] == true)
        #expect(account["name"] == "JUDr. Petr Dvořák")
        let roles = try require(account["roles"]?.arrayValue)
        #expect(roles.map { $0["role"] } == ["VY", "ST"], "both roles, not only stagUserRole's")
        #expect(roles[0]["ucitIdno"] == 283755)
        #expect(roles[1]["osCislo"] == "R21P0002P")

        // The ticket is in the vault only: never in a result, and sent as a cookie.
        let vault = try await bench.host.call("vault.list").get().encodedString()
        #expect(vault.contains("stag/127.0.0.1/ticket"))
        let ticket = try require(try await bench.host.host.vault.get("stag/127.0.0.1/ticket"), "the stored ticket")
        #expect(ticket.count == 64)
        // The host's redactor would scrub a ticket from a result, so look for its placeholder too:
        // the plugin never tried to return it.
        for result in [status, try await bench.host.call("stag.accounts.list").get()] {
            #expect(!result.encodedString().contains(ticket))
            #expect(!result.encodedString().contains(SecretRedactor.placeholder), "the plugin put a secret in a result")
        }
        let requests = try await bench.fake.requests()
        #expect(!requests.isEmpty)
        #expect(requests.allSatisfy { $0["auth"] == "cookie" })
        #expect(requests.allSatisfy { $0["query"]?["ticket"] == nil && $0["query"]?["stagUserTicket"] == nil })
        await bench.stop()
    }

    @Test func aCancelledLoginSavesNothing() async throws {
        let bench = try await StagBench.start()
        for mode in ["cancel", "empty"] {
            try await bench.fake.admin("login", ["user": "student", "mode": .string(mode)])
            let started = try await bench.host.call("stag.login", ["base_url": .string(bench.fake.base), "account": "zcu"]).get()
            _ = try await Browser.open(try require(started["login_url"]?.stringValue))
            let done = try await bench.host.call("stag.login.wait", ["account": "zcu"]).get()
            #expect(done["state"] == "failed", "\(mode)")
            #expect(done["detail"]?.stringValue?.contains("cancelled") == true, "\(mode): \(done)")
            #expect(try await bench.host.call("stag.accounts.list").get()["accounts"] == [], "\(mode): no account")
        }
        await bench.stop()
    }

    @Test func aPlusThatArrivedAsASpaceIsRepaired() async throws {
        let bench = try await StagBench.start()
        try await bench.fake.admin("login", ["user": "student", "mode": "space"])
        let started = try await bench.host.call("stag.login", ["base_url": .string(bench.fake.base), "account": "zcu"]).get()
        _ = try await Browser.open(try require(started["login_url"]?.stringValue))
        let done = try await bench.host.call("stag.login.wait", ["account": "zcu"]).get()
        #expect(done["state"] == "logged_in", "\(done)")
        #expect(done["roles"]?.arrayValue?.map { $0["osCislo"] } == ["F20B0001P"])
        await bench.stop()
    }

    @Test func callbackInfoDecodesWithSpacesForPluses() throws {
        let json =
            #"{"jmeno":"Jana","prijmeni":"NOVÁKOVÁ","x":"~~~é","#
            + #""stagUserInfo":[{"userName":"F20B0001P","role":"ST","osCislo":"F20B0001P"}]}"#
        let encoded = Data(json.utf8).base64EncodedString()
        #expect(encoded.contains("+"), "the sample must have a '+' to test the repair")
        let mangled = encoded.replacingOccurrences(of: "+", with: " ")
        #expect(Data(base64Encoded: mangled) == nil, "unrepaired, it does not decode")
        let identity = try require(StagCallback.decodeInfo(mangled))
        #expect(identity.name == "Jana NOVÁKOVÁ")
        #expect(identity.roles.map(\.studentID) == ["F20B0001P"])
    }

    @Test func pastedCallbackOrTicketAndThePasswordLogin() async throws {
        let bench = try await StagBench.start()
        // A ticket from a browser flow, pasted as the callback address.
        try await bench.fake.admin("login", ["user": "student", "mode": "normal"])
        let loginURL = bench.fake.base + "/ws/login?originalURL=" + "http%3A%2F%2F127.0.0.1%3A9%2Fcb" + "&longTicket=1"
        let callback = try require(try await Browser.redirectLocation(loginURL), "the 302's Location")
        let pasted = try await bench.host.call(
            "stag.login.ticket", ["base_url": .string(bench.fake.base), "account": "a", "callback_url": .string(callback)]
        ).get()
        #expect(pasted["account"]?["roles"]?.arrayValue?.first?["osCislo"] == "F20B0001P")

        let ticket = try require(URLComponents(string: callback)?.queryItems?.first { $0.name == "stagUserTicket" }?.value)
        let byTicket = try await bench.host.call(
            "stag.login.ticket", ["base_url": .string(bench.fake.base), "account": "b", "ticket": .string(ticket)]
        ).get()
        #expect(byTicket["account"]?["logged_in"] == true)

        let byPassword = try await bench.host.call(
            "stag.login.password",
            [
                "base_url": .string(bench.fake.base), "account": "c", "username": "F20B0001P", "password": "heslo-studenta",
            ]
        ).get()
        #expect(byPassword["account"]?["roles"]?.arrayValue?.first?["osCislo"] == "F20B0001P")
        let vault = try await bench.host.call("vault.list").get().encodedString()
        #expect(vault.contains("stag/c/ticket"))
        #expect(!vault.contains("stag/c/password"), "the password is used once, never stored")

        // A refused ticket or password saves nothing.
        guard
            case .failure(let refused) = try await bench.host.call(
                "stag.login.ticket", ["base_url": .string(bench.fake.base), "account": "d", "ticket": "0123abcd"])
        else {
            Issue.record("a bogus ticket was accepted")
            return
        }
        #expect(refused.code == -32003)
        guard
            case .failure(let wrong) = try await bench.host.call(
                "stag.login.password",
                [
                    "base_url": .string(bench.fake.base), "account": "e", "username": "F20B0001P", "password": "wrong",
                ])
        else {
            Issue.record("a wrong password was accepted")
            return
        }
        #expect(wrong.code == -32003)
        #expect(!wrong.message.contains("wrong"), "the password is not echoed")
        let names = try await bench.host.call("stag.accounts.list").get()["accounts"]?.arrayValue?.map { $0["account"] }
        #expect(names == ["a", "b", "c"])
        await bench.stop()
    }

    @Test func badLoginInputIsRefusedBeforeAnythingIsSent() async throws {
        let bench = try await StagBench.start()
        let cases: [(String, JSONValue, String)] = [
            ("stag.login", [:], "university"),
            ("stag.login", ["university": "nowhere"], "university"),
            ("stag.login", ["university": "zcu", "base_url": "https://x.example"], "base_url"),
            ("stag.login", ["base_url": "http://stag.example.org"], "base_url"),
            ("stag.login", ["base_url": "ftp://127.0.0.1"], "base_url"),
            ("stag.login", ["base_url": "https://user:pw@stag.example.org"], "base_url"),
            ("stag.login", ["university": "zcu", "account": "bad name!"], "account"),
            ("stag.login.ticket", ["university": "zcu"], "callback_url"),
            ("stag.login.ticket", ["university": "zcu", "callback_url": "http://127.0.0.1/?a=b"], "callback_url"),
            ("stag.login.ticket", ["university": "zcu", "ticket": "a b"], "ticket"),
            ("stag.login.ticket", ["university": "zcu", "ticket": "x", "callback_url": "http://127.0.0.1/?stagUserTicket=x"], "ticket"),
            ("stag.login.password", ["university": "zcu", "username": "a"], "password"),
            ("stag.login.password", ["university": "zcu", "username": "a:b", "password": "p"], "username"),
            ("stag.accounts.default", ["account": "none"], "account"),
            ("stag.accounts.remove", ["account": "none"], "account"),
            ("stag.timetable", [:], "account"),
            ("stag.logout", ["account": "none"], "account"),
            ("stag.login.wait", ["account": "none"], "account"),
            ("stag.login.wait", ["account": "x", "timeout_s": 0], "timeout_s"),
            ("stag.login", ["university": 5], "university"),
        ]
        try await bench.host.expectInvalidParams(cases)
        // The pasted anonymous ticket is a cancelled login.
        guard case .failure(let anonymous) = try await bench.host.call("stag.login.ticket", ["university": "zcu", "ticket": "anonymous"]) else {
            Issue.record("anonymous accepted")
            return
        }
        #expect(anonymous.code == 1302)
        #expect(try await bench.fake.requests().isEmpty, "nothing reached STAG")
        await bench.stop()
    }
}
