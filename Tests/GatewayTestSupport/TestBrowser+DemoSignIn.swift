import Foundation

extension TestBrowser {
    /// Runs `body` with a browser for `baseURL` and shuts it down afterwards, also when `body` throws.
    static func using<Result>(_ baseURL: String, _ body: (TestBrowser) async throws -> Result) async throws -> Result {
        try await TestBrowser(baseURL: baseURL).closing(body)
    }

    /// Runs `body` with this browser and shuts it down afterwards, also when `body` throws (a browser left open traps
    /// when it is released).
    func closing<Result>(_ body: (TestBrowser) async throws -> Result) async throws -> Result {
        do {
            let result = try await body(self)
            try await shutdown()
            return result
        } catch {
            try? await shutdown()
            throw error
        }
    }

    /// Opens the sign-in, picks "Username and password" and returns its form.
    func openPasswordForm() async throws -> ScrapedForm {
        let selector = try await get("/")
        let login = try await submit(try selector.form(button: "Username and password"))
        guard let form = login.forms.first(where: { $0.inputs.contains { $0.type == "password" } }) else {
            throw BrowserError("no password form in:\n\(login.html)")
        }
        return form
    }

    /// Signs in as demo/demo through every page and returns the last response (the signed-in page, or a redirect).
    func signInAsDemo() async throws -> Page {
        let notice = try await submit(try await openPasswordForm(), ["userName": "demo", "password": "demo"])
        return try await submit(try notice.form(button: "Continue"))
    }

    /// From the authenticator selector, signs in as demo/demo through every page.
    func signInAsDemoFrom(_ selector: Page) async throws -> Page {
        let login = try await submit(try selector.form(button: "Username and password"))
        guard let form = login.forms.first(where: { $0.inputs.contains { $0.type == "password" } }) else {
            throw BrowserError("no password form in:\n\(login.html)")
        }
        let notice = try await submit(form, ["userName": "demo", "password": "demo"])
        return try await submit(try notice.form(button: "Continue"))
    }

    /// The person's part of a device sign-in: opens `verification_uri_complete` (an absolute URL on this browser's
    /// gateway), continues with the prefilled code, and returns the page that asks to confirm the device.
    func enterDeviceCode(completeURI: String) async throws -> Page {
        guard let url = URL(string: completeURI) else { throw BrowserError("not a URL: \(completeURI)") }
        let entry = try await get(url.path + (url.query.map { "?" + $0 } ?? ""))
        return try await submit(try entry.form(button: "Continue"))
    }
}
