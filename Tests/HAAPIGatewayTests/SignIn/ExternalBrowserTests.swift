import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

@Suite("External-browser client operation")
struct ExternalBrowserTests {
    /// The launch link on the page, unescaped.
    private func launchLink(in page: TestBrowser.Page) throws -> String {
        let hrefs = ScrapedForm.matches(#"<a href="([^"]+)" rel="noopener noreferrer" data-external-browser>"#, in: page.html)
        return try #require(hrefs.first).replacingOccurrences(of: "&amp;", with: "&").replacingOccurrences(of: "&#x3D;", with: "=")
            .replacingOccurrences(of: "&#x2F;", with: "/").replacingOccurrences(of: "&#39;", with: "'")
    }

    @Test("the page links out with the gateway's return address and offers a form to paste the resume code")
    func linkOutAndResumeForm() async throws {
        try await GatewayHarness.withGateway { browser, demo, _ in
            let selector = try await browser.get("/")
            let page = try await browser.submit(try selector.form(button: "External browser"))
            let launch = try launchLink(in: page)
            #expect(launch.hasPrefix(demo.baseURL.absoluteString))
            let redirect = URLComponents(string: launch)?.queryItems?.first { $0.name == "redirect_uri" }?.value
            #expect(redirect == browser.baseURL + "/external-browser/return")
            #expect(page.html.contains(#"<script src="/assets/external-browser.js" defer></script>"#))
            let resume = try #require(page.forms.first { $0.inputs.contains { $0.name == "_resume_nonce" } })
            #expect(resume.inputs.first { $0.name == "_resume_nonce" }?.type == "text")
            #expect(page.html.contains("Code from the browser"), "a context field is labelled for a person")
            let wrong = try await browser.submit(resume, ["_resume_nonce": "not-a-nonce"])
            #expect(wrong.html.contains("field-error"))
        }
    }

    @Test("the browser comes back to the gateway: the return page fills the code in, submits nothing, and Continue goes on")
    func returnPageContinuesTheSignIn() async throws {
        try await GatewayHarness.withGateway { browser, _, sinkPath in
            let selector = try await browser.get("/")
            let page = try await browser.submit(try selector.form(button: "External browser"))
            let location = try await DemoSideChannel.signInExternally(launchURL: try launchLink(in: page), user: "demo")
            #expect(location.hasPrefix(browser.baseURL + "/external-browser/return?"))
            let code = try #require(URLComponents(string: location)?.queryItems?.first { $0.name == "_resume_nonce" }?.value)

            let returned = try await browser.get(String(location.dropFirst(browser.baseURL.count)))
            #expect(returned.status == 200)
            #expect(returned.html.contains(#"data-resume-nonce="\#(code)""#))
            #expect(returned.html.contains(#"<script src="/assets/external-browser-return.js" defer></script>"#))
            let form = try #require(returned.forms.first { $0.inputs.contains { $0.name == "_resume_nonce" } })
            #expect(form.fields["_resume_nonce"] == code)
            // The GET moved nothing: the current step is still the external-browser one.
            let again = try await browser.get("/")
            #expect(again.forms.contains { $0.inputs.contains { $0.name == "_resume_nonce" } })

            let next = try await browser.submit(form)
            #expect(next.html.contains("Welcome") || next.html.contains("Signed in"), "\(next.html.prefix(400))")
            if let proceed = next.forms.first(where: { $0.button == "Continue" }) { _ = try await browser.submit(proceed) }
            #expect(FileManager.default.fileExists(atPath: sinkPath))
        }
    }

    @Test("a return without a usable code, without a session or when no external browser is awaited shows the current page")
    func returnPageGuards() async throws {
        try await GatewayHarness.withGateway { browser, _, _ in
            let noSession = try await browser.get("/external-browser/return?_resume_nonce=abc")
            #expect(noSession.status == 410 || noSession.html.contains("Session expired"), "no session: \(noSession.status)")
            _ = try await browser.get("/")
            // At the selector, nothing awaits an external browser.
            let notAwaited = try await browser.get("/external-browser/return?_resume_nonce=abc")
            #expect(notAwaited.html.contains("Select Authentication Method") && !notAwaited.html.contains("data-resume-nonce"))
            let selector = try await browser.get("/")
            _ = try await browser.submit(try selector.form(button: "External browser"))
            for bad in ["", "a%20b", "a%00b", "%C3%A5", String(repeating: "x", count: 513)] {
                let page = try await browser.get("/external-browser/return?_resume_nonce=" + bad)
                #expect(!page.html.contains("data-resume-nonce"), "\(bad.prefix(20))")
            }
            let markup = try await browser.get("/external-browser/return?_resume_nonce=%22%3E%3Cscript%3Ex%3C/script%3E")
            #expect(
                markup.html.contains(#"data-resume-nonce="&quot;&gt;&lt;script&gt;x&lt;&#x2F;script&gt;""#)
                    || markup.html.contains(#"data-resume-nonce="&quot;&gt;&lt;script&gt;x&lt;/script&gt;""#)
            )
            #expect(!markup.html.contains("<script>x"))
        }
    }

    @Test("the launch link keeps the server's parameters as it encoded them, replaces a redirect_uri already there, and encodes its own")
    func launchURL() throws {
        var builder = StepPageBuilder(
            snapshot: SessionSnapshot(phase: .step, step: nil, version: 1, csrfToken: "c", notices: [], fieldErrors: [:], values: [:]),
            messages: try TemplateLibrary(settings: TemplateSettings(directory: Repository.templates)).messages,
            language: "en"
        )
        #expect(builder.externalBrowserLaunchURL("https://idp.example/launch?a=1") == "https://idp.example/launch?a=1")
        builder.origin = "https://login.example.com"
        #expect(
            builder.externalBrowserLaunchURL("https://idp.example/launch?a=1%2B2&redirect_uri=https://evil.example/&re%64irect_uri=x")
                == "https://idp.example/launch?a=1%2B2&redirect_uri=https%3A%2F%2Flogin.example.com%2Fexternal-browser%2Freturn"
        )
        // Whatever the origin holds, the parameter stays one parameter.
        builder.origin = "https://login.example.com:8443&evil=1#x"
        let built = try #require(URLComponents(string: builder.externalBrowserLaunchURL("https://idp.example/launch")))
        #expect(built.queryItems == [URLQueryItem(name: "redirect_uri", value: "https://login.example.com:8443&evil=1#x/external-browser/return")])
    }
}
