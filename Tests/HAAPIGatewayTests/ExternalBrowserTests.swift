import Foundation
import HAAPIGateway
import Testing
@testable import GatewayTestSupport

@Suite("External-browser client operation")
struct ExternalBrowserTests {
    @Test("the page links out and offers a form to paste the resume nonce")
    func linkOutAndResumeForm() async throws {
        try await GatewayHarness.withGateway { browser, demo, _ in
            let selector = try await browser.get("/")
            let page = try await browser.submit(try selector.form(button: "External browser"))
            let hrefs = ScrapedForm.matches(#"<a href="([^"]+)" rel="noopener noreferrer">"#, in: page.html)
            #expect(hrefs.contains { $0.hasPrefix(demo.baseURL.absoluteString) })
            let resume = try #require(page.forms.first { $0.inputs.contains { $0.name == "_resume_nonce" } })
            #expect(resume.inputs.first { $0.name == "_resume_nonce" }?.type == "text")
            let wrong = try await browser.submit(resume, ["_resume_nonce": "not-a-nonce"])
            #expect(wrong.html.contains("field-error"))
        }
    }
}
