import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

extension SecurityAndReliabilityTests {
    /// B2, no open redirect: the gateway never takes a redirect target from a request, and the one target an operator can
    /// configure (`completion.redirectURL`) must be a clean absolute http(s) URL. oauth2-proxy's table is the test data.
    @Suite("No open redirect (oauth2-proxy's table as test data)")
    struct OpenRedirectTests {
        private static let completionURL = "https://foo.bar/redirect"

        /// The configuration with `completion.redirectURL` set to `redirectURL`, or its problems.
        private func load(redirectURL: String) -> (configuration: GatewayConfiguration?, problems: [String]) {
            do {
                return (try GatewayConfiguration.load(file: nil, environment: ["HAAPI_GATEWAY_COMPLETION_REDIRECT_URL": redirectURL]), [])
            } catch {
                return (nil, error.problems)
            }
        }

        /// The target under every parameter name redirecting software commonly reads.
        private static func query(_ target: String) -> String {
            let encoded = target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            return ["rd", "next", "return_to", "returnTo", "redirect", "redirect_uri", "url"].map { "\($0)=\(encoded)" }.joined(separator: "&")
        }

        @Test(
            "completion.redirectURL: a clean absolute http(s) URL is kept verbatim, every other row is refused at startup",
            arguments: OpenRedirectCase.table
        )
        func completionURLFromTheTable(_ row: OpenRedirectCase) {
            let (configuration, problems) = load(redirectURL: row.target)
            if let configuration {
                #expect(row.isCleanAbsoluteURL, "\(String(reflecting: row.target)) must be refused")
                #expect(configuration.completion.redirectURL?.absoluteString == row.target)
            } else {
                #expect(!row.isCleanAbsoluteURL, "\(String(reflecting: row.target)) is a clean absolute URL: \(problems)")
                #expect(problems.count == 1 && problems[0].hasPrefix("completion.redirectURL"), "\(problems)")
                #expect(!problems.joined().contains("\n") && !problems.joined().contains("\r"), "a problem line cannot be split by the value")
            }
        }

        @Test(
            "completion.redirectURL: user info, backslashes, whitespace, three slashes and other schemes are refused",
            arguments: OpenRedirectCase.disguisedAbsolute
        )
        func disguisedCompletionURLsAreRefused(_ row: OpenRedirectCase) {
            let (configuration, problems) = load(redirectURL: row.target)
            #expect(configuration == nil, "\(String(reflecting: row.target)) was accepted")
            #expect(problems.count == 1 && problems[0].hasPrefix("completion.redirectURL"), "\(problems)")
        }

        @Test("with every row as rd, next, return_to, redirect_uri or a pairing token, every Location is / or the configured completion URL")
        func noRouteRedirectsWhereTheRequestSays() async throws {
            let rows = OpenRedirectCase.table + OpenRedirectCase.disguisedAbsolute
            // Every row starts a sign-in from one address: no bound on new sign-ins here (LimitsTests has that bound).
            try await GatewayHarness.withGateway(configure: {
                $0.completion.redirectURL = URL(string: Self.completionURL)
                $0.sessions.maximumNewSessionsPerAddress = 0
            }) { browser, _, _ in
                for row in rows {
                    _ = try await browser.get("/?" + Self.query(row.target))
                    _ = try await browser.post("/start-again?" + Self.query(row.target), body: "")
                }
                // A whole sign-in whose every request carries the smuggled targets ends at the configured URL only.
                let smuggled = Self.query("https://evil.corp/redirect")
                let selector = try await browser.get("/?" + smuggled)
                let option = try selector.form(button: "Username and password")
                let login = try await browser.post(option.action + "?" + smuggled, body: option.urlEncoded)
                var password = try #require(login.forms.first { $0.inputs.contains { $0.type == "password" } })
                password.fields["userName"] = "demo"
                password.fields["password"] = "demo"
                let notice = try await browser.post(password.action + "?" + smuggled, body: password.urlEncoded)
                let proceed = try notice.form(button: "Continue")
                let done = try await browser.post(proceed.action + "?" + smuggled, body: proceed.urlEncoded)
                #expect(done.status == 303 && done.header("Location") == Self.completionURL)
                #expect(browser.locations.allSatisfy { $0 == "/" || $0 == Self.completionURL }, "\(Set(browser.locations))")
            }
            try await GatewayHarness.withGateway(configure: {
                $0.completion.redirectURL = URL(string: Self.completionURL)
                $0.pairing = PairingSettings(ticket: PairingTicket.make(lifetime: .seconds(60)), hostName: "test-host")
            }) { browser, _, _ in
                for row in rows where !row.target.isEmpty {
                    let token = row.target.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
                    let page = try await browser.get("/pair/" + token + "?" + Self.query(row.target))
                    #expect(page.status == 410 || page.status == 404, "\(row.name): \(page.status)")
                }
                #expect(browser.locations.isEmpty, "\(browser.locations)")
            }
        }
    }
}
