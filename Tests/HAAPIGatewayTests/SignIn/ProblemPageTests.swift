import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway

/// ``ProblemPage``: what each kind of HAAPI problem does to the page, as Curity's SDKs treat problems (notes 3.9).
@Suite("Problems into pages")
struct ProblemPageTests {
    private static let passwordStep: Representation = {
        let json: JSONValue = [
            "type": "authentication-step",
            "actions": [
                [
                    "template": "form", "kind": "login",
                    "model": [
                        "href": "/authn/authenticate", "method": "POST",
                        "fields": [
                            ["name": "userName", "type": "username"], ["name": "password", "type": "password"],
                            ["name": "_state", "type": "hidden", "value": "s"],
                        ],
                    ],
                ]
            ],
        ]
        return try! Representation(json: json)
    }()

    private func problem(_ json: JSONValue, status: Int = 400) throws -> Problem { try Problem(json: json, httpStatus: status) }

    @Test("an input problem keeps the step: its messages as notices, a shown field's error beside it, a hidden field's said anyway, its links added")
    func inputProblemKeepsTheStep() throws {
        let invalid = try problem([
            "type": "https://curity.se/problems/invalid-input", "title": "Invalid input",
            "messages": [["text": "Check the fields"]],
            "invalidFields": [["name": "userName", "detail": "Too short"], ["name": "_state", "reason": "expired"]],
            "links": [["href": "/authn/reset", "rel": "reset-password", "title": "Forgot your password?"]],
        ])
        guard case .keepStep(let notices, let fieldErrors, let step) = ProblemPage(invalid, shown: Self.passwordStep) else {
            Issue.record("an input problem ends nothing")
            return
        }
        #expect(notices.first == .upstream("Check the fields"))
        #expect(notices.contains(.gateway(.fieldNotOnPage, arguments: ["field": "_state", "reason": "expired"])), "never dropped")
        #expect(fieldErrors == ["userName": .upstream("Too short")])
        #expect(step?.links.contains { $0.title == "Forgot your password?" } == true)
    }

    @Test("wrong credentials without messages say so in the gateway's words, or the problem's title")
    func credentialsWithoutMessages() throws {
        let bare = try problem(["type": "https://curity.se/problems/incorrect-credentials"])
        #expect(
            ProblemPage(bare, shown: Self.passwordStep)
                == .keepStep(notices: [.gateway(.incorrectCredentials)], fieldErrors: [:], step: Self.passwordStep)
        )
        let titled = try problem(["type": "https://curity.se/problems/incorrect-credentials", "title": "Wrong password"])
        #expect(
            ProblemPage(titled, shown: Self.passwordStep)
                == .keepStep(notices: [.upstream("Wrong password")], fieldErrors: [:], step: Self.passwordStep)
        )
    }

    @Test("an OAuth error response ends the flow with its error as the outcome, every text on the page")
    func authorizationErrorEndsTheFlow() throws {
        let denied = try problem([
            "type": "https://curity.se/problems/error-authorization-response", "title": "Denied",
            "error": "access_denied", "error_description": "The user said no",
        ])
        #expect(
            ProblemPage(denied, shown: Self.passwordStep)
                == .endFlow(
                    message: .upstream("Denied The user said no"),
                    failure: .init(error: "access_denied", errorDescription: "The user said no"),
                    links: []
                )
        )
    }

    @Test("a session that no longer matches its token starts again; any other problem is named by its type, its links kept")
    func otherProblemsEndTheFlow() throws {
        let mismatch = try problem(
            ["type": "https://curity.se/problems/mismatch-between-session-and-access-token", "title": "Mismatch"],
            status: 409
        )
        guard case .endFlow(let message, let failure, _) = ProblemPage(mismatch, shown: nil) else {
            Issue.record("a mismatch ends the flow")
            return
        }
        #expect(message == .gateway(.signInExpired))
        #expect(failure.error == "session_expired")
        let unknown = try problem([
            "type": "https://example.com/problems/new-kind", "detail": "Something new",
            "links": [
                ["href": "/authn/restart", "rel": "restart", "title": "Start over"], ["href": "/i.png", "rel": "image", "type": "image/png"],
            ],
        ])
        guard case .endFlow(let said, let named, let links) = ProblemPage(unknown, shown: nil) else {
            Issue.record("an unknown problem ends the flow")
            return
        }
        #expect(said == .upstream("Something new"))
        #expect(named.error == "https://example.com/problems/new-kind")
        #expect(links.map(\.title) == ["Start over"], "the links stay usable; images are left out")
    }
}
