import Foundation
import HAAPI

extension GatewayConfiguration {
    /// The demo upstream unless `upstream.baseURL` is set; then a full HAAPI client configuration.
    static func resolveUpstream(_ reader: inout ConfigurationReader) -> UpstreamSettings {
        // OAuth writes scopes space-separated (RFC 6749 §3.3: a scope token has no space), so "openid profile" is two
        // wherever it is written, as it would be in a request.
        let scopes =
            reader.list(.upstreamScopes).map { $0.flatMap { $0.split(whereSeparator: \.isWhitespace).map(String.init) } }
            ?? DemoUpstreamSettings().scopes
        let timeout = reader.integer(.upstreamTimeoutSeconds, default: 5)
        guard reader.isSet(.upstreamBaseURL) else { return .demo(resolveDemoUpstream(&reader, scopes: scopes, timeoutSeconds: timeout)) }
        for key: ConfigurationKey in [.demoRequireDPoPNonce, .demoStrict] where reader.isSet(key) {
            reader.problem(key, "applies to the embedded demo upstream only; remove it or \(ConfigurationKey.upstreamBaseURL.path)")
        }
        let baseURL = reader.httpURL(.upstreamBaseURL) { text in
            // A host name alone (`idsvr.example.com`, `idsvr:8443`): the issuer a default Curity there has.
            guard !text.contains("/"), !text.isEmpty, text.allSatisfy({ $0.isLetter || $0.isNumber || "-.:[]".contains($0) }) else { return nil }
            return "for a Curity Identity Server at that host, its issuer: https://\(text)/oauth/v2/oauth-anonymous"
        }
        if let baseURL { requireHTTPS(&reader, .upstreamBaseURL, baseURL) }
        let clientID = reader.string(.upstreamClientID)
        if clientID == nil { reader.problem(.upstreamClientID, "is required when \(ConfigurationKey.upstreamBaseURL.path) is set") }
        let authentication = resolveClientAuthentication(&reader)
        let trustRoots = reader.isSet(.upstreamTrustRootsFile) ? reader.fileContents(.upstreamTrustRootsFile).map { [$0] } ?? [] : []
        let parameters = resolveAuthorizationParameters(&reader)
        let bind = reader.booleanOrDefault(.upstreamBindTokensToDPoP)
        let address = resolveUpstreamAddress(&reader, baseURL: baseURL, scopes: scopes)
        guard let baseURL, let clientID, let authentication else { return .demo(DemoUpstreamSettings()) }
        // The connect timeout also bounds the wait for a pooled connection (AsyncHTTPClient), so it is the whole timeout:
        // under many concurrent sign-ins a call may wait for a connection, and only the whole call has a limit.
        var client = HAAPIClientConfiguration(
            baseURL: baseURL,
            clientID: clientID,
            clientAuthentication: authentication,
            additionalTrustRootsPEM: trustRoots,
            redirectURI: reader.stringOrDefault(.upstreamRedirectURI),
            scopes: scopes,
            authorizationParameters: parameters,
            connectTimeout: .seconds(timeout),
            requestTimeout: .seconds(timeout),
            bindTokensToDPoP: bind
        )
        client.endpoints = address.endpoints
        client.internalURL = address.internalURL
        // The client library's own checks (key material, URLs); claims were checked above under their own key.
        // (internalURL and the endpoints were checked above under their own keys.)
        for problem in client.problems where !problem.hasPrefix("claims") && !problem.hasPrefix("internalURL") && !problem.contains(" endpoint must")
        {
            reader.problem(inSection: "upstream", problem)
        }
        return .haapi(client)
    }

    /// The embedded demo upstream's settings (no `upstream.baseURL`): scopes and the timeout apply to it too; every other
    /// `upstream` key needs a real upstream, and is a problem here.
    private static func resolveDemoUpstream(_ reader: inout ConfigurationReader, scopes: [String], timeoutSeconds: Int) -> DemoUpstreamSettings {
        let sharedKeys: Set<ConfigurationKey> = [.upstreamBaseURL, .upstreamScopes, .upstreamTimeoutSeconds]
        for key in ConfigurationKey.all where key.section == "upstream" && !sharedKeys.contains(key) && reader.isSet(key) {
            reader.problem(key, "is set, but \(ConfigurationKey.upstreamBaseURL.path) is not (without it the embedded demo upstream is used)")
        }
        return DemoUpstreamSettings(
            requireDPoPNonce: reader.boolean(.demoRequireDPoPNonce, default: false),
            strict: reader.boolean(.demoStrict, default: false),
            scopes: scopes,
            timeoutSeconds: timeoutSeconds
        )
    }
}
