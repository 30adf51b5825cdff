import HAAPI

/// One demo/demo sign-in with the HAAPI library, as an application using it would: the same four steps the gateway's
/// pages show, each timed from the call to the response that needs the person (or the tokens).
struct DirectSignIn {
    let flow: HAAPIFlow

    func run() async throws -> [Duration] {
        let clock = ContinuousClock()
        var timings: [Duration] = []
        var step: Representation!
        timings.append(
            try await clock.measure {
                step = try Self.step(await flow.followAutomaticSteps(from: try await flow.start(acceptLanguage: "en"), acceptLanguage: "en"))
            }
        )
        timings.append(
            try await clock.measure {
                let options = step.actions.flatMap { $0.selectorOptions ?? [] }
                guard let option = options.first(where: { $0.properties?["authenticatorType"]?.stringValue == "html-form" }) else {
                    throw DriverError("no username and password option on \(step.type.rawValue)")
                }
                step = try await submit(option, [:])
            }
        )
        timings.append(
            try await clock.measure {
                guard let login = step.actions.first(where: { $0.form?.fields.contains { $0.type == .password } == true }) else {
                    throw DriverError("no password form on \(step.type.rawValue)")
                }
                step = try await submit(login, ["userName": "demo", "password": "demo"])
            }
        )
        timings.append(
            try await clock.measure {
                guard let proceed = step.actions.first(where: { $0.form != nil }) else { throw DriverError("no action on \(step.type.rawValue)") }
                let final = try await submit(proceed, [:])
                guard try await flow.exchangeCode(from: final).tokens != nil else { throw DriverError("the token endpoint refused the code") }
            }
        )
        return timings
    }

    private func submit(_ action: Action, _ parameters: [String: String]) async throws -> Representation {
        try Self.step(
            await flow.followAutomaticSteps(
                from: try await flow.submitForm(action, parameters: parameters, acceptLanguage: "en"),
                acceptLanguage: "en"
            )
        )
    }

    private static func step(_ response: HAAPIResponse) throws -> Representation {
        switch response {
        case .representation(let step): return step
        case .problem(let problem): throw DriverError("the upstream answered the problem \(problem.type)")
        }
    }
}
