import HAAPI
import Testing

/// Drives one HAAPI flow the way a user interface would: show a step, pick an action, fill its fields.
struct SignInWalker {
    let flow: HAAPIFlow

    /// Starts the flow and follows the automatic steps to the first step that needs the user.
    func start() async throws -> Representation {
        try step(await flow.followAutomaticSteps(from: try await flow.start(acceptLanguage: "en")))
    }

    /// Picks an option of the authenticator selector by its `authenticatorType` property.
    func chooseAuthenticator(_ type: String, on selector: Representation) async throws -> Representation {
        #expect(selector.stepKind == .authenticatorSelector)
        let options = selector.actions.flatMap { $0.selectorOptions ?? [] }
        let option = try #require(options.first { $0.properties?["authenticatorType"]?.stringValue == type })
        return try await submit(option)
    }

    /// Submits the step's action of the given kind with visible field values.
    func submit(_ kind: ActionKind, on step: Representation, _ parameters: [String: String] = [:]) async throws -> HAAPIResponse {
        let action = try #require(step.actions.first { $0.kind == kind }, "no '\(kind)' action on \(step.type)")
        return try await flow.followAutomaticSteps(from: try await flow.submitForm(action, parameters: parameters))
    }

    /// Submits an action and expects a step back.
    func submit(_ action: Action, _ parameters: [String: String] = [:]) async throws -> Representation {
        try step(await flow.followAutomaticSteps(from: try await flow.submitForm(action, parameters: parameters)))
    }

    /// Submits the step's action of the given kind and expects a step back.
    func submitExpectingStep(_ kind: ActionKind, on step: Representation, _ parameters: [String: String] = [:]) async throws -> Representation {
        try self.step(await submit(kind, on: step, parameters))
    }

    func step(_ response: HAAPIResponse) throws -> Representation {
        switch response {
        case .representation(let step): return step
        case .problem(let problem):
            Issue.record("expected a step, got the problem \(problem.type): \(problem.title ?? "")")
            throw ProblemReceived(problem: problem)
        }
    }

    struct ProblemReceived: Error { let problem: Problem }
}
