import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// Signed start links: the signature over the canonical parameters, the expiry and its bound, the allowlist, one use.
@Suite("Signed start links")
struct StartLinkVerifierTests {
    static let secret = "start-link-secret-0123456789-abcdefgh"

    static func settings(allowed: [String] = ["login_hint", "ui_locales"]) -> StartLinkSettings {
        var settings = StartLinkSettings()
        settings.secret = secret
        settings.allowedParameters = allowed
        return settings
    }

    /// A link's query pairs, signed with `secret` over everything given.
    static func signed(_ values: [String: String], secret: String = secret) -> [(name: String, value: String)] {
        values.map { ($0.key, $0.value) } + [("sig", StartLinkVerifier.signature(of: values, secret: secret))]
    }

    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("a signed link within its lifetime gives its reference and allowed parameters, once")
    func validLinkOnce() async throws {
        let verifier = StartLinkVerifier(settings: .fixed(Self.settings()), now: { Self.now })
        let pairs = Self.signed(["ref": "screen 7/ä", "login_hint": "alice@example.com", "exp": "1800000300"])
        let link = try? try await verifier.redeem(pairs).get()
        #expect(link == StartLink(reference: "screen 7/ä", parameters: ["login_hint": "alice@example.com"]))
        #expect(try await verifier.redeem(pairs) == .failure(.alreadyUsed))
    }

    @Test(
        "refused: a wrong or missing signature, another secret, an altered value, an expired link, one valid too long, a parameter not allowed or repeated"
    )
    func refusals() async throws {
        let verifier = StartLinkVerifier(settings: .fixed(Self.settings(allowed: ["login_hint"])), now: { Self.now })
        let good = ["ref": "r", "exp": "1800000300"]
        #expect(try await verifier.redeem(good.map { ($0.key, $0.value) }) == .failure(.badSignature))
        #expect(try await verifier.redeem(Self.signed(good, secret: "another-secret-another-secret-0123")) == .failure(.badSignature))
        var altered = Self.signed(good)
        altered[altered.firstIndex { $0.name == "ref" }!] = ("ref", "other")
        #expect(try await verifier.redeem(altered) == .failure(.badSignature))
        #expect(try await verifier.redeem(Self.signed(["ref": "r", "exp": "1799999999"])) == .failure(.expired))
        #expect(try await verifier.redeem(Self.signed(["ref": "r", "exp": "1800000601"])) == .failure(.lifetimeTooLong))
        #expect(try await verifier.redeem(Self.signed(["ref": "r"])) == .failure(.noExpiry))
        #expect(
            try await verifier.redeem(Self.signed(["ref": "r", "exp": "1800000300", "prompt": "none"])) == .failure(.parameterNotAllowed("prompt"))
        )
        #expect(try await verifier.redeem(Self.signed(good) + [("ref", "again")]) == .failure(.parameterNotAllowed("ref")))
    }

    @Test("during a rotation links signed with the previous secret still work")
    func previousSecret() async throws {
        var settings = Self.settings()
        settings.previousSecret = "the-previous-secret-0123456789-abcd"
        let verifier = StartLinkVerifier(settings: .fixed(settings), now: { Self.now })
        #expect((try? try await verifier.redeem(Self.signed(["exp": "1800000100"], secret: "the-previous-secret-0123456789-abcd")).get()) != nil)
    }

    @Test("the receiver example docs/examples/start_link.py (Python's hmac and quote) makes links the gateway accepts", .startsPrograms())
    func pythonExampleAgrees() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("start-link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let secretFile = directory.appendingPathComponent("secret")
        try (Self.secret + "\n").write(to: secretFile, atomically: true, encoding: .utf8)
        let result = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", Repository.root.appendingPathComponent("docs/examples/start_link.py").path, "https://login.example.com", secretFile.path,
                "kiosk 3 & lobby", "login_hint=bob+tag@example.com", "ui_locales=sv en",
            ]
        )
        #expect(result.status == 0, "\(result.standardError)")
        let url = try #require(URLComponents(string: result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let pairs = (url.percentEncodedQuery ?? "").split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            return (name: parts[0], value: parts.count > 1 ? parts[1] : "")
        }
        let verifier = StartLinkVerifier(settings: .fixed(Self.settings()))
        let link = try? try await verifier.redeem(pairs).get()
        #expect(link == StartLink(reference: "kiosk 3 & lobby", parameters: ["login_hint": "bob+tag@example.com", "ui_locales": "sv en"]))
    }
}
