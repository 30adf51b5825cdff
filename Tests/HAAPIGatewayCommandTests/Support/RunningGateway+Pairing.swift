import Foundation
import Testing

@testable import GatewayTestSupport

extension RunningGateway {
    /// For a `login` run: opens the link it prints, confirms the code and signs in as demo/demo; returns the last page.
    func pairAndSignIn() async throws -> TestBrowser.Page {
        let url = try #require(URL(string: try await waitForOutput(#"(http://127\.0\.0\.1:\d+/pair/[A-Za-z0-9_-]+)"#)))
        return try await TestBrowser.using("http://127.0.0.1:\(url.port!)") { browser in
            let confirm = try await browser.get(url.path)
            _ = try await browser.submit(try confirm.form(button: "It matches, continue"))
            return try await browser.signInAsDemo()
        }
    }
}
