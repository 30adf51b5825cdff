import Foundation

extension TestBrowser {
    /// The demo users whose second steps differ: a notice (demo), an emailed code (otp), approval on another device by
    /// polling (poll), and consent (consent).
    static let secondStepUsers = ["demo", "otp", "poll", "consent"]

    /// Signs in as the demo user `user` (one of ``secondStepUsers``) through every page and returns the last one: for
    /// otp the code `code` gives (the demo's outbox); for poll the waiting page, its script's status (unchanged), its
    /// refresh (still waiting), then `approve` (the other device), the status again until it says changed (within the step's interval) and `/`.
    func signIn(asDemoUser user: String, code: () async throws -> String, approve: () async throws -> Void) async throws -> Page {
        let option = ["otp": "Email one-time code", "poll": "Approve on another device"][user] ?? "Username and password"
        let selector = try await get("/")
        let login = try await submit(try selector.form(button: option))
        guard let form = login.forms.first(where: { $0.inputs.contains { $0.type == "password" } }) else {
            throw BrowserError("no password form in:\n\(login.html)")
        }
        let second = try await submit(form, ["userName": user, "password": user])
        switch user {
        case "demo":
            return try await submit(try second.form(button: "Continue"))
        case "otp":
            guard let codeForm = second.forms.first(where: { $0.inputs.contains { $0.name == "otp" } }) else {
                throw BrowserError("no code form in:\n\(second.html)")
            }
            return try await submit(codeForm, ["otp": try await code()])
        case "poll":
            guard let status = ScrapedForm.matches(#"data-status-url="([^"]+)""#, in: second.html).first,
                let poll = ScrapedForm.matches(#"<meta http-equiv="refresh" content="\d+; ?url=([^"]+)">"#, in: second.html).first
            else { throw BrowserError("no waiting page:\n\(second.html)") }
            let unchanged = try await get(status)
            guard unchanged.html == #"{"changed":false}"# else { throw BrowserError("the status of a pending step: \(unchanged.html)") }
            let still = try await get(poll)
            guard still.html.contains("data-status-url") else { throw BrowserError("not waiting after a refresh:\n\(still.html)") }
            try await approve()
            let changed = try await statusOnceChanged(status)
            guard changed.html == #"{"changed":true}"# else { throw BrowserError("the status once approved: \(changed.html)") }
            return try await get("/")
        case "consent":
            guard let consent = second.forms.first(where: { $0.inputs.contains { $0.type == "checkbox" } }) else {
                throw BrowserError("no consent form in:\n\(second.html)")
            }
            return try await submit(consent)
        default:
            throw BrowserError("\(user) is not one of \(Self.secondStepUsers)")
        }
    }
}
