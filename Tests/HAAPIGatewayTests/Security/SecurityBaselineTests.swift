import Foundation
import HAAPIGateway
import Synchronization
import Testing

@testable import GatewayTestSupport

@Suite("Gateway security baseline")
struct SecurityBaselineTests {
    @Test("a post without the session's CSRF token is refused with 403 and nothing moves")
    func missingOrWrongCSRFIsRefused() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let form = try await browser.openPasswordForm()
            var forged = form
            forged.fields["_csrf"] = nil
            let missing = try await browser.submit(forged, ["userName": "demo", "password": "demo"])
            #expect(missing.status == 403)
            let wrong = try await browser.submit(form, ["userName": "demo", "password": "demo", "_csrf": "x" + (form.fields["_csrf"] ?? "")])
            #expect(wrong.status == 403)
            let current = try await browser.get("/")
            #expect(current.forms.contains { $0.action == form.action }, "the step did not move")
        }
    }

    @Test("cross-site posts (Sec-Fetch-Site or a foreign Origin) are refused with 403")
    func crossSitePostsAreRefused() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let form = try await browser.openPasswordForm()
            let crossSite = try await browser.submit(form, ["userName": "demo", "password": "demo"], headers: [("Sec-Fetch-Site", "cross-site")])
            #expect(crossSite.status == 403)
            let foreign = try await browser.submit(form, ["userName": "demo", "password": "demo"], headers: [("Origin", "https://evil.example")])
            #expect(foreign.status == 403)
            let sameOrigin = try await browser.submit(
                form,
                ["userName": "demo", "password": "demo"],
                headers: [("Origin", browser.baseURL), ("Sec-Fetch-Site", "same-origin")]
            )
            #expect(sameOrigin.status == 200)
            #expect(sameOrigin.forms.contains { $0.button == "Email me a copy" })
        }
    }

    @Test("Origin: null (what browsers send under Referrer-Policy: no-referrer) passes only with Sec-Fetch-Site: same-origin")
    func nullOriginNeedsSameOriginFetchMetadata() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let form = try await browser.openPasswordForm()
            let bareNull = try await browser.submit(form, ["userName": "demo", "password": "demo"], headers: [("Origin", "null")])
            #expect(bareNull.status == 403)
            let nullCrossSite = try await browser.submit(
                form,
                ["userName": "demo", "password": "demo"],
                headers: [("Origin", "null"), ("Sec-Fetch-Site", "cross-site")]
            )
            #expect(nullCrossSite.status == 403)
            let browserLike = try await browser.submit(
                form,
                ["userName": "demo", "password": "demo"],
                headers: [("Origin", "null"), ("Sec-Fetch-Site", "same-origin")]
            )
            #expect(browserLike.status == 200)
            #expect(browserLike.forms.contains { $0.button == "Email me a copy" })
        }
    }

    @Test("every page carries CSP, nosniff, no-referrer and no-store; no page has a script")
    func securityHeadersOnEveryPage() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let selector = try await browser.get("/")
            let css = try await browser.get("/assets/gateway.css")
            let refused = try await browser.post("/step/1/action/0.0", body: "_csrf=wrong")
            for page in [selector, refused] {
                #expect(
                    page.header("Content-Security-Policy")
                        == "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'"
                )
                #expect(page.header("X-Content-Type-Options") == "nosniff")
                #expect(page.header("X-Frame-Options") == "DENY", "framing refused also where CSP's frame-ancestors is unknown")
                #expect(page.header("Referrer-Policy") == "no-referrer")
                #expect(page.header("Cache-Control") == "no-store")
                #expect(!page.html.lowercased().contains("<script"))
            }
            #expect(css.status == 200)
            #expect(css.header("X-Content-Type-Options") == "nosniff")
            #expect(css.html.contains("var(--accent)"))
            let theme = try await browser.get("/assets/theme.css")
            #expect(theme.html.contains("prefers-color-scheme"))
        }
    }

    @Test("the session cookie is HttpOnly, SameSite=Lax, Path=/, 256-bit random; Secure and __Host- behind https")
    func sessionCookieAttributes() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            _ = try await browser.get("/")
            let header = try #require(browser.setCookieHeaders.first)
            #expect(header.hasPrefix("haapi-gateway="))
            #expect(header.contains("HttpOnly") && header.contains("SameSite=Lax") && header.contains("Path=/"))
            #expect(!header.contains("Secure"))
            let value = try #require(browser.cookies["haapi-gateway"])
            #expect(value.count >= 43, "at least 256 bits, base64url")
        }
        try await GatewayHarness.withGateway(configure: { $0.server.publicBaseURL = URL(string: "https://gateway.example") }) { browser, _, _ in
            _ = try await browser.get("/")
            let header = try #require(browser.setCookieHeaders.first)
            #expect(header.hasPrefix("__Host-haapi-gateway="))
            #expect(header.contains("; Secure"))
        }
    }

    @Test(
        "server.strictTransportSecuritySeconds: Strict-Transport-Security on every response over HTTPS, never over plain HTTP, and a reload changes it at once"
    )
    func strictTransportSecurity() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let page = try await browser.get("/")
            #expect(page.header("Strict-Transport-Security") == nil, "off by default")
        }
        try await GatewayHarness.withGateway(configure: { $0.server.strictTransportSecuritySeconds = 600 }) { browser, _, _ in
            let page = try await browser.get("/")
            #expect(page.header("Strict-Transport-Security") == nil, "never over plain HTTP (RFC 6797 §7.2)")
        }
        let reloader = GatewayReloader()
        let started = Mutex<GatewayConfiguration?>(nil)
        try await GatewayHarness.withGateway(
            reloader: reloader,
            configure: { configuration in
                configuration.server.publicBaseURL = URL(string: "https://gateway.example")
                configuration.server.strictTransportSecuritySeconds = 31_536_000
                started.withLock { $0 = configuration }
            }
        ) { browser, _, _ in
            #expect(try await browser.get("/").header("Strict-Transport-Security") == "max-age=31536000")
            #expect(try await browser.get("/assets/gateway.css").header("Strict-Transport-Security") == "max-age=31536000")
            var off = try #require(started.withLock { $0 })
            off.server.strictTransportSecuritySeconds = 0
            let outcome = await reloader.reload(off)
            #expect(outcome.applied && outcome.needsRestart.isEmpty, "\(outcome)")
            #expect(try await browser.get("/").header("Strict-Transport-Security") == nil, "the reload applied at once")
        }
    }

    @Test("a body over server.maximumRequestBodyBytes is refused with 413")
    func oversizedBodyIsRefused() async throws {
        try await GatewayHarness.withGateway(configure: { $0.server.maximumRequestBodyBytes = 1024 }) { browser, _, _ in
            let form = try await browser.openPasswordForm()
            let page = try await browser.submit(form, ["userName": String(repeating: "a", count: 4096), "password": "demo"])
            #expect(page.status == 413)
        }
    }

    @Test("a stale step version (back button, double submit) re-renders the current step with a notice, upstream not called")
    func staleVersionRerendersCurrentStep() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let selector = try await browser.get("/")
            let option = try selector.form(button: "Username and password")
            let login = try await browser.submit(option)
            #expect(login.forms.contains { $0.inputs.contains { $0.type == "password" } })
            let again = try await browser.submit(try selector.form(button: "Email one-time code"))
            #expect(again.html.contains("This page had changed"))
            #expect(again.forms.contains { $0.inputs.contains { $0.type == "password" } }, "still the password step")
        }
    }

    @Test("another session's form is refused")
    func anotherSessionsPostIsRefused() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let form = try await browser.openPasswordForm()
            let other = TestBrowser(baseURL: browser.baseURL)
            _ = try await other.get("/")
            let page = try await other.submit(form, ["userName": "demo", "password": "demo"])
            #expect(page.status == 403)
            try await other.shutdown()
        }
    }

    @Test("no password, token, code or cookie value appears in any log line or page")
    func secretsNeverLoggedOrShown() async throws {
        let capture = LogCapture()
        let password = "demo"
        try await GatewayHarness.withGateway(logger: capture.logger) { browser, _, sinkPath in
            let form = try await browser.openPasswordForm()
            let notice = try await browser.submit(form, ["userName": "demo", "password": password])
            let done = try await browser.submit(try notice.form(button: "Continue"))
            #expect(done.html.contains("You are signed in"))
            let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: sinkPath))) as? [String: Any]
            let token = try #require(object?["token"] as? [String: Any])
            var secrets = [token["accessToken"] as? String, token["refreshToken"] as? String, token["idToken"] as? String].compactMap { $0 }
            secrets += browser.cookies.values
            secrets.append(form.fields["_csrf"] ?? "")
            let logs = capture.text
            #expect(!logs.isEmpty)
            #expect(!logs.contains("password=\(password)") && !logs.contains("\"password\":\"\(password)\""))
            for secret in secrets where secret.count > 8 {
                #expect(!logs.contains(secret))
                #expect(!done.html.contains(secret))
            }
        }
    }
}
