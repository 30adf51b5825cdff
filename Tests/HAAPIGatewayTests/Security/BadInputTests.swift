import AsyncHTTPClient
import Foundation
import HAAPIGateway
import NIOCore
import Testing

@testable import GatewayTestSupport

extension SecurityAndReliabilityTests {
    /// Bad input from the browser side: every request gets a clear page or error (never a 500), and the sign-in under way
    /// stays usable afterwards.
    @Suite("Bad input from browsers")
    struct BadInputTests {
        /// Signs in with the password form the test started from; proves nothing was lost.
        private func finishSignIn(_ browser: TestBrowser) async throws {
            let current = try await browser.get("/")
            let form = try #require(
                current.forms.first { $0.inputs.contains { $0.type == "password" } },
                "still on the password step:\n\(current.html)"
            )
            let notice = try await browser.submit(form, ["userName": "demo", "password": "demo"])
            let done = try await browser.submit(try notice.form(button: "Continue"))
            #expect(done.html.contains("You are signed in"))
        }

        @Test("malformed, invalid UTF-8, duplicated, unknown and thousands of fields: a clear page, never a 500, the sign-in goes on")
        func malformedBodies() async throws {
            try await GatewayHarness.withGateway(configure: { $0.sessions.maximumFailedPostsPerSession = 1000 }) { browser, _, _ in
                let form = try await browser.openPasswordForm()
                let csrf = try #require(form.fields["_csrf"])
                let bodies: [String] = [
                    "", "%", "%%%", "%zz=%zz", "=&&==&", "&&&&", "_csrf", "_csrf=",
                    "_csrf=\(csrf)&userName=%FF%FE&password=%C0%AF",
                    "_csrf=%FF\(csrf)&userName=demo&password=x",
                    "_csrf=forged&_csrf=\(csrf)&userName=demo&password=x",
                    "_csrf=\(csrf)&userName=demo&password=&password=demo&evil=1&__proto__=x&constructor=y",
                    "_csrf=\(csrf)&" + (0..<5000).map { "f\($0)=\($0)" }.joined(separator: "&"),
                    "_csrf=\(csrf)&userName=" + String(repeating: "%00", count: 100) + "&password=" + String(repeating: "\u{202E}", count: 50),
                ]
                for body in bodies {
                    let page = try await browser.post(form.action, body: body)
                    #expect([200, 400, 403].contains(page.status), "\(body.prefix(60)): \(page.status)")
                    #expect(page.html.contains("<h1>"), "a page, not a bare error")
                    let current = try await browser.get("/")
                    #expect(current.forms.contains { $0.inputs.contains { $0.type == "password" } }, "after \(body.prefix(60)) the step is kept")
                }
                let invalidUTF8: [[UInt8]] = [
                    Array("_csrf=\(csrf)&userName=".utf8) + [0xFF, 0xFE, 0xC0, 0xAF] + Array("&password=demo".utf8),
                    [0xC3, 0x28, 0xA0, 0xA1, 0xE2, 0x28, 0xA1, 0xF0, 0x28, 0x8C, 0xBC],
                    Array("_csrf=".utf8) + [0xED, 0xA0, 0x80] + Array(csrf.utf8),
                ]
                for bytes in invalidUTF8 {
                    let page = try await browser.post(form.action, bytes: bytes)
                    #expect([200, 400, 403].contains(page.status), "\(bytes.prefix(12)): \(page.status)")
                }
                try await finishSignIn(browser)
            }
        }

        @Test("forged step versions, action addresses and link indexes: a clear page, the current step kept, upstream not confused")
        func forgedAddresses() async throws {
            try await GatewayHarness.withGateway(configure: { $0.sessions.maximumFailedPostsPerSession = 1000 }) { browser, _, _ in
                let form = try await browser.openPasswordForm()
                let csrf = try #require(form.fields["_csrf"])
                let version = try #require(form.action.split(separator: "/").dropFirst().first, "\(form.action)")
                let paths = [
                    "/step/999/action/0", "/step/0/action/0", "/step/-1/action/0", "/step/abc/action/0", "/step/99999999999999999999999/action/0",
                    "/step/\(version)/action/99", "/step/\(version)/action/0.0.0.0.0.0.0.0.0.0", "/step/\(version)/action/-1",
                    "/step/\(version)/action/0x0", "/step/\(version)/action/%2E%2E%2F%2E%2E",
                    "/step/\(version)/action/" + String(repeating: "0.", count: 2000) + "0", "/step/\(version)/link/999", "/step/\(version)/link/-1",
                    "/step/\(version)/link/abc",
                    "/step/\(version)/link/99999999999999999999999", "/step/../../etc/passwd", "/step/\(version)/action/0/../../../cancel",
                ]
                for path in paths {
                    let page = try await browser.post(path, body: "_csrf=\(csrf)&userName=demo&password=demo")
                    #expect(page.status != 500 && page.status < 600, "\(path.prefix(60)): \(page.status)")
                    #expect(!page.forms.contains { $0.button == "Continue" }, "\(path.prefix(60)) did not sign in")
                    let current = try await browser.get("/")
                    #expect(current.forms.contains { $0.action == form.action }, "after \(path.prefix(60)) the step is kept")
                }
                try await finishSignIn(browser)
            }
        }

        @Test("forged, truncated, oversized and duplicated session cookies: 'session expired' or a new sign-in, never another's session")
        func forgedCookies() async throws {
            try await GatewayHarness.withGateway { browser, _, _ in
                _ = try await browser.openPasswordForm()
                let id = try #require(browser.cookies["haapi-gateway"])
                let forged = [
                    "haapi-gateway=\(id.dropLast())", "haapi-gateway=\(id)x", "haapi-gateway=\(id.uppercased())", "haapi-gateway=",
                    "haapi-gateway=" + String(repeating: "A", count: 6000), "haapi-gateway=%00\(id)", "haapi-gateway=\"\(id)\"",
                    "haapi-gateway=../../\(id)", "haapi-gateway=forged; haapi-gateway=\(id)", "haapi-gateway", ";;;;=;=;",
                    "__Host-haapi-gateway=\(id)",
                ]
                try await TestBrowser.using(browser.baseURL) { attacker in
                    for cookie in forged {
                        let page = try await attacker.send(cookie: cookie)
                        #expect(page.status == 200, "\(cookie.prefix(40)): \(page.status)")
                        #expect(
                            !page.forms.contains { $0.inputs.contains { $0.type == "password" } },
                            "\(cookie.prefix(40)) reached the victim's step"
                        )
                    }
                }
                try await finishSignIn(browser)
            }
        }

        @Test("an oversized header or URL is refused without a 500, and the gateway goes on serving")
        func oversizedHeaders() async throws {
            try await GatewayHarness.withGateway { browser, _, _ in
                _ = try await browser.openPasswordForm()
                for (name, value, path) in [
                    ("X-Big", String(repeating: "a", count: 200_000), "/"), ("Accept-Language", String(repeating: "en;q=0.1,", count: 5000), "/"),
                    ("X-Ok", "1", "/?" + String(repeating: "q", count: 100_000)),
                ] {
                    var request = HTTPClientRequest(url: browser.baseURL + path)
                    request.headers.add(name: name, value: value)
                    do {
                        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
                        #expect(response.status.code != 500, "\(name): \(response.status.code)")
                    } catch {
                        // The server closing the connection on a header past its parser's limit is a refusal too.
                    }
                }
                try await finishSignIn(browser)
            }
        }
    }
}
