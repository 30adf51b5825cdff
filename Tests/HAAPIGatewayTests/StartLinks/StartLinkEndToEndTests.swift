import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// A signed start link starts a sign-in with the application's reference and parameters; the reference comes back in
/// the outcome and to `completion.redirectURL`; a bad, expired or used link gets a clear page and starts no flow.
@Suite("Signed start links end to end")
struct StartLinkEndToEndTests {
    static let secret = StartLinkVerifierTests.secret

    static func configure(_ configuration: inout GatewayConfiguration) {
        configuration.startLinks.secret = secret
        configuration.startLinks.allowedParameters = ["login_hint", "ui_locales"]
        configuration.completion.redirectURL = URL(string: "https://app.example.com/done?from=gateway")
    }

    /// `/start?…` signed over `values`, with an expiry 5 minutes ahead unless given.
    static func link(_ values: [String: String], secret: String = secret) -> String {
        var values = values
        if values["exp"] == nil { values["exp"] = String(Int(Date().timeIntervalSince1970) + 300) }
        let query = values.sorted { $0.key < $1.key }.map { "\(StartLinkVerifier.encode($0.key))=\(StartLinkVerifier.encode($0.value))" }
        return "/start?" + query.joined(separator: "&") + "&sig=" + StartLinkVerifier.signature(of: values, secret: secret)
    }

    @Test("the link's login_hint and ui_locales reach the authorize request; the outcome names the reference; completion.redirectURL receives it")
    func linkStartsASignIn() async throws {
        try await GatewayHarness.withProxiedGateway(configure: Self.configure) { browser, _, sinkPath, proxy in
            let page = try await browser.get(Self.link(["ref": "screen 7", "login_hint": "alice@example.com", "ui_locales": "sv"]))
            #expect(page.status == 200 && browser.cookies.isEmpty, "the link's page starts nothing")
            #expect(!proxy.traffic.contains { $0.contains("response_type=code") })
            let selector = try await browser.submit(try page.form(button: "Continue to sign in"))
            #expect(selector.status == 200)
            let authorize = try #require(proxy.traffic.first { $0.hasPrefix("GET ") && $0.contains("response_type=code") })
            #expect(authorize.contains("login_hint=alice%40example.com"), "\(authorize.prefix(400))")
            #expect(authorize.contains("ui_locales=sv"))
            _ = try await browser.signInAsDemoFrom(selector)
            #expect(browser.locations.last == "https://app.example.com/done?from=gateway&reference=screen%207")
            let outcome = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sinkPath))) as? [String: Any])
            #expect(outcome["outcome"] as? String == "success")
            #expect(outcome["token"] != nil)
            let starter = try #require(outcome["starter"] as? [String: Any])
            #expect(starter["kind"] as? String == "link")
            #expect(starter["reference"] as? String == "screen 7")
        }
    }

    @Test("a wrong signature, a parameter not allowed, an expired or a used link: a clear page, no cookie, no flow")
    func badLinksStartNothing() async throws {
        let metrics = GatewayMetrics()
        try await GatewayHarness.withGateway(metrics: metrics, configure: Self.configure) { browser, _, _ in
            let forged = try await browser.get(Self.link(["ref": "x"], secret: "not-the-secret-not-the-secret-0123"))
            #expect(forged.status == 403)
            #expect(forged.html.contains("This sign-in link is not valid"))
            let prompt = try await browser.get(Self.link(["ref": "x", "prompt": "none"]))
            #expect(prompt.status == 403)
            let expired = try await browser.get(Self.link(["ref": "x", "exp": String(Int(Date().timeIntervalSince1970) - 1)]))
            #expect(expired.status == 410)
            #expect(expired.html.contains("has expired or was already used"))
            let tooLong = try await browser.get(Self.link(["ref": "x", "exp": String(Int(Date().timeIntervalSince1970) + 3600)]))
            #expect(tooLong.status == 403)
            #expect(browser.cookies.isEmpty, "no session for a refused link")
            #expect(!metrics.exposition().contains("haapi_gateway_flows_started_total 1"), "no flow was started")
            let link = Self.link(["ref": "once"])
            let firstStatus = try await TestBrowser.using(browser.baseURL) { first in
                try await first.submit(try first.get(link).form(button: "Continue to sign in")).status
            }
            #expect(firstStatus == 200)
            let again = try await browser.post(link, body: "")
            #expect(again.status == 410, "a link starts one sign-in")
            #expect(browser.cookies.isEmpty)
        }
    }

    /// Link scanners and chat previews fetch a link (`HEAD`, then `GET`) before the person opens it: as an adversarial
    /// probe found, `HEAD /start?…` once started a flow and used the link up.
    @Test("HEAD and a preview's GET start nothing and leave the link working; only the person's post uses it; a cross-site post is refused")
    func previewsLeaveTheLinkWorking() async throws {
        let metrics = GatewayMetrics()
        try await GatewayHarness.withProxiedGateway(metrics: metrics, configure: Self.configure) { browser, _, _, proxy in
            let link = Self.link(["ref": "previewed", "login_hint": "alice@example.com"])
            try await TestBrowser.using(browser.baseURL) { preview in
                let head = try await preview.head(link)
                #expect(head.status == 200 && head.header("Set-Cookie") == nil, "HEAD: \(head.status)")
                let fetched = try await preview.get(link)
                #expect(fetched.status == 200 && fetched.header("Set-Cookie") == nil)
                #expect(preview.cookies.isEmpty)
            }
            #expect(!proxy.traffic.contains { $0.contains("response_type=code") }, "no flow was started upstream")
            let forged = try await browser.post(link, body: "", headers: [("Sec-Fetch-Site", "cross-site")])
            #expect(forged.status == 403 && browser.cookies.isEmpty)
            let page = try await browser.get(link)
            let selector = try await browser.submit(try page.form(button: "Continue to sign in"))
            #expect(selector.html.contains("Username and password"), "the person's click starts the sign-in")
            #expect(proxy.traffic.contains { $0.hasPrefix("GET ") && $0.contains("login_hint=alice%40example.com") })
        }
    }

    @Test("HEAD / starts no sign-in and sets no cookie")
    func headOfTheStartPageStartsNothing() async throws {
        try await GatewayHarness.withProxiedGateway { browser, _, _, proxy in
            let head = try await browser.head("/")
            #expect(head.status == 200 && head.header("Set-Cookie") == nil && browser.cookies.isEmpty)
            #expect(!proxy.traffic.contains { $0.contains("response_type=code") }, "no flow was started upstream")
            #expect(try await browser.get("/").html.contains("Username and password"))
        }
    }
}
