/// The answer of a flow endpoint: a step or a problem.
enum FlowOutcome: Sendable {
    case step(Representation)
    case problem(Problem)

    /// The problem for a call that does not fit the flow's current stage.
    static let unexpectedStep = FlowOutcome.problem(
        .unexpected(code: "unexpected_step", messages: ["This step is not available at this point of the login."])
    )
}
