extension UpstreamSettings {
    /// A comparable, secret-free description (equal when nothing that matters changed).
    var summaryLine: String {
        switch self {
        case .demo(let demo): "demo \(demo.requireDPoPNonce) \(demo.strict) \(demo.scopes) \(demo.timeoutSeconds)"
        case .haapi(let client): "\(client) \(client.authorizationParameters.queryItems.map { "\($0.0)=\($0.1)" }) \(client.requestTimeout)"
        }
    }
}
