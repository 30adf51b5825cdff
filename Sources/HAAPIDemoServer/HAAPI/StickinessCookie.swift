import HTTPTypes

/// The strict mode's stickiness cookie (``DemoServerConfiguration/requiresStickinessCookie``), standing in for a load
/// balancer that pins a client to one node of a Curity cluster (notes 2.3: no Curity source requires cookies, but
/// load balancers commonly do, and a client must keep a flow's cookies and send them back, RFC 6265 rules).
///
/// The authorize response sets `demo-node=<random, per flow>; Path=/; HttpOnly`; every later request of the flow
/// must send it back. It also sets `demo-unused=1; Path=/demo-unused; HttpOnly`, whose path matches no HAAPI URL: a
/// client that sends it to HAAPI paths ignores cookie paths (RFC 6265 §5.1.4, §5.4) and is refused.
enum StickinessCookie {
    static let name = "demo-node"
    static let unusedName = "demo-unused"
    static let unusedPath = "/demo-unused"

    /// The `Set-Cookie` header values for a new flow whose node cookie is `value`.
    static func setCookieValues(value: String) -> [String] {
        ["\(name)=\(value); Path=/; HttpOnly", "\(unusedName)=1; Path=\(unusedPath); HttpOnly"]
    }

    /// The problem for a request of the flow whose node cookie is `expected`, or nil when its cookies are right.
    static func problem(cookieHeaders: [String], expected: String) -> Problem? {
        let pairs = CookieHeader.pairs(cookieHeaders)
        if pairs.contains(where: { $0.name == unusedName }) {
            return .unexpected(
                code: "cookie_outside_its_path",
                messages: ["The cookie \(unusedName) was set with Path=\(unusedPath) and must not be sent to this path (RFC 6265 §5.4)."]
            )
        }
        let values = pairs.filter { $0.name == name }.map(\.value)
        guard !values.isEmpty else {
            return .unexpected(
                code: "missing_stickiness_cookie",
                messages: [
                    "The cookie \(name) set by the authorize response is missing: this request would reach another node of the cluster. Send the flow's cookies back on every request of the flow."
                ]
            )
        }
        guard values.count == 1, let value = values.first, RandomToken.constantTimeEquals(value, expected) else {
            return .unexpected(
                code: "wrong_stickiness_cookie",
                messages: ["The cookie \(name) does not belong to this flow: send back the value its authorize response set, once."]
            )
        }
        return nil
    }
}
