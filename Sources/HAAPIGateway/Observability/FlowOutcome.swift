/// How a sign-in ended: the `outcome` of `haapi_gateway_flows_completed_total`, as the callbacks' outcome names it.
enum FlowOutcome: String, CaseIterable, Sendable {
    /// Tokens were obtained (or handed to a device).
    case success
    /// The upstream or the gateway ended it with an error.
    case error
    /// The person cancelled it.
    case cancelled
}
