/// The kind of upstream call a duration is recorded for: the `endpoint` of `haapi_gateway_upstream_duration_seconds`.
enum UpstreamEndpoint: String, CaseIterable, Sendable {
    /// The authorize request that starts a sign-in, with the automatic steps after it.
    case authorize
    /// A HAAPI call of a sign-in under way (a form post, a link, a poll), with the automatic steps after it.
    case haapi
    /// The code exchange at the token endpoint.
    case token
    /// The userinfo endpoint (only when `outcome.userinfoClaims` asks for claims).
    case userinfo
}
