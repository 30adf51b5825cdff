import Foundation

extension TokenManager {
    /// The grant type of the device access token request (RFC 8628 §3.4).
    public static let deviceCodeGrantType = "urn:ietf:params:oauth:grant-type:device_code"

    /// Asks for a device authorization (RFC 8628 §3.1) with the client's authentication: HTTP Basic for
    /// ``ClientAuthentication/secretBasic(_:)``, only `client_id` in the form for a public client
    /// (``ClientAuthentication/none``).
    /// - Parameters:
    ///   - endpoint: The device authorization endpoint (from the authorization server's metadata).
    ///   - scopes: The scopes to ask for; none leaves the `scope` parameter out (the server's default).
    /// - Returns: The JSON object of the answer (RFC 8628 §3.2), or the OAuth error it refused with.
    /// - Throws: ``HAAPIError`` when the endpoint cannot be reached or answers with neither.
    public func requestDeviceAuthorization(at endpoint: URL, scopes: [String] = []) async throws(HAAPIError) -> OAuthResponseOutcome {
        var form: [(String, String)] = []
        if !scopes.isEmpty { form.append(("scope", scopes.joined(separator: " "))) }
        let (status, json, response) = try await endpointClient.post(form, to: endpoint, dpopKey: nil)
        if (200..<300).contains(status) {
            guard let json else {
                throw HAAPIError.malformed(
                    "the device authorization endpoint answer is not a JSON object",
                    status: status,
                    contentType: response.header("Content-Type") ?? "none"
                )
            }
            return .json(json)
        }
        if let error = TokenEndpointClient.oauthError(status: status, json: json) { return .oauthError(error) }
        throw HAAPIError(
            .upstreamStatus,
            "the device authorization endpoint answered with HTTP \(status) and no OAuth error",
            status: status,
            contentType: response.header("Content-Type") ?? "none"
        )
    }

    /// Asks the token endpoint for the tokens of a device authorization (RFC 8628 §3.4), once. While the person has not
    /// finished, the answer is the OAuth error `authorization_pending` or `slow_down` (§3.5); polling is the caller's.
    ///
    /// A device holds no key its tokens could be bound to. A server that hands on tokens bound to a key of its own (a
    /// haapi-gateway relaying DPoP-bound upstream tokens) sends that key as `dpop_private_key` (PEM) with `token_type`
    /// `DPoP`; the tokens are returned with it, as a code exchange returns them with the flow's key.
    /// - Parameter deviceCode: The `device_code` of the device authorization.
    /// - Throws: ``HAAPIError`` when the endpoint cannot be reached, answers with neither tokens nor an OAuth error, or
    ///   sends a `dpop_private_key` that is not a P-256 private key.
    public func exchange(deviceCode: String) async throws(HAAPIError) -> TokenExchangeOutcome {
        let answer = try await endpointClient.post(
            [("grant_type", Self.deviceCodeGrantType), ("device_code", deviceCode)],
            to: endpointClient.context.endpoints.token,
            dpopKey: nil
        )
        var key: DPoPKey?
        if (200..<300).contains(answer.status), let pem = answer.json?["dpop_private_key"]?.stringValue {
            do {
                key = try DPoPKey(pem: pem)
            } catch {
                throw HAAPIError.malformed("the token endpoint's dpop_private_key is not a P-256 private key", status: answer.status)
            }
        }
        return try TokenEndpointClient.tokens(from: answer, dpopKey: key)
    }
}
