import Foundation

/// Posts form requests to the token and revocation endpoints with client authentication,
/// an optional DPoP proof, and one retry on a `use_dpop_nonce` challenge.
struct TokenEndpointClient: Sendable {
    let context: HAAPIClientContext

    /// Posts `form` to `url`.
    /// - Parameters:
    ///   - form: The grant parameters (client authentication is added here).
    ///   - url: The endpoint.
    ///   - dpop: When set, a DPoP proof is sent with its nonce, a `use_dpop_nonce` challenge (RFC 9449 §8: HTTP 400 with
    ///     a fresh `DPoP-Nonce`) is answered once, and the latest nonce is left in it.
    ///   - cookieHeader: The flow's upstream cookies for this URL, if any.
    /// - Returns: The status, the JSON object of the answer (nil when it is none), and the response. OAuth errors,
    ///   `invalid_dpop_proof` included, are answers, not thrown.
    /// - Throws: ``HAAPIError/Code/dpopRejected`` when the server demands a nonce again after the one retry.
    func post(
        _ form: [(String, String)],
        to url: URL,
        dpop: inout DPoPProofing?,
        cookieHeader: String? = nil
    ) async throws(HAAPIError) -> (status: Int, json: JSONValue?, response: HTTPResponseData) {
        var retriedForNonce = false
        while true {
            var request = try makeRequest(form, to: url)
            if let proofing = dpop { request.headers.append((name: "DPoP", value: try proofing.proof(method: "POST", url: url))) }
            if let cookieHeader { request.headers.append((name: "Cookie", value: cookieHeader)) }
            let response = try await context.send(request)
            dpop?.remember(from: response)
            let json = Self.json(of: response)
            if response.status == 400 || response.status == 401, json?["error"]?.stringValue == "use_dpop_nonce", dpop != nil {
                if !retriedForNonce, response.header("DPoP-Nonce") != nil {
                    retriedForNonce = true
                    context.logger.debug("token endpoint asked for a DPoP nonce; retrying once")
                    continue
                }
                throw HAAPIError(
                    .dpopRejected,
                    "the token endpoint demanded a DPoP nonce (use_dpop_nonce) again after one retry, or without sending one",
                    status: response.status
                )
            }
            return (response.status, json, response)
        }
    }

    /// Posts `form` with a proof by `dpopKey` (if any), using and updating the client's per-key nonce store: for token
    /// requests outside a flow (refresh, revocation).
    func post(
        _ form: [(String, String)],
        to url: URL,
        dpopKey: DPoPKey?
    ) async throws(HAAPIError) -> (status: Int, json: JSONValue?, response: HTTPResponseData) {
        var dpop = dpopKey.map { DPoPProofing(key: $0, nonce: context.nonceStore.nonce(for: $0)) }
        let answer = try await post(form, to: url, dpop: &dpop)
        if let dpop, let nonce = dpop.nonce { context.nonceStore.update(nonce, for: dpop.key) }
        return answer
    }

    /// Requests tokens and maps the answer to tokens or an OAuth error value.
    /// - Parameters:
    ///   - form: The grant parameters.
    ///   - dpopKey: The key to bind to, if any.
    func requestTokens(_ form: [(String, String)], dpopKey: DPoPKey?) async throws(HAAPIError) -> TokenExchangeOutcome {
        try Self.tokens(from: try await post(form, to: context.endpoints.token, dpopKey: dpopKey), dpopKey: dpopKey)
    }

    /// Interprets a token endpoint answer: tokens (with `dpopKey` when the server bound them to it, `token_type` DPoP),
    /// an OAuth error value (RFC 6749 §5.2, and RFC 9449's `invalid_dpop_proof` / `use_dpop_nonce`), or a failure.
    static func tokens(
        from answer: (status: Int, json: JSONValue?, response: HTTPResponseData),
        dpopKey: DPoPKey?
    ) throws(HAAPIError) -> TokenExchangeOutcome {
        let (status, json, response) = answer
        let contentType = response.header("Content-Type")
        if (200..<300).contains(status) {
            guard let json else {
                throw HAAPIError.malformed("the token endpoint answer is not JSON", status: status, contentType: contentType ?? "none")
            }
            guard let accessToken = json["access_token"]?.stringValue, !accessToken.isEmpty else {
                throw HAAPIError.malformed("the token endpoint answer has no access_token", status: status, contentType: contentType)
            }
            let tokenType = json["token_type"]?.stringValue ?? "Bearer"
            let bound = OAuthTokens.isDPoP(tokenType: tokenType)
            return .tokens(
                OAuthTokens(
                    accessToken: accessToken,
                    expiresIn: TokenLifetime.seconds(in: json["expires_in"]),
                    refreshToken: json["refresh_token"]?.stringValue,
                    tokenType: tokenType,
                    scope: json["scope"]?.stringValue,
                    idToken: json["id_token"]?.stringValue,
                    dpopKey: bound ? dpopKey : nil
                )
            )
        }
        if let error = oauthError(status: status, json: json) { return .oauthError(error) }
        throw HAAPIError(
            .upstreamStatus,
            "the token endpoint answered with HTTP \(status) and no OAuth error",
            status: status,
            contentType: contentType ?? "none"
        )
    }

    /// An OAuth error value from a 4xx JSON answer with `error`.
    static func oauthError(status: Int, json: JSONValue?) -> OAuthErrorResponse? {
        guard (400..<500).contains(status), let error = json?["error"]?.stringValue else { return nil }
        return OAuthErrorResponse(
            error: error,
            errorDescription: json?["error_description"]?.stringValue,
            errorURI: json?["error_uri"]?.stringValue,
            httpStatus: status
        )
    }

    private func makeRequest(_ form: [(String, String)], to url: URL) throws(HAAPIError) -> HTTPRequestData {
        let configuration = context.configuration
        var pairs = form
        var headers: [(name: String, value: String)] = [
            ("Content-Type", "application/x-www-form-urlencoded"), ("Accept", "application/json"),
        ]
        let (authentication, assertionSigner) = context.credentials.current
        switch authentication {
        case .none, .mutualTLS:
            pairs.append(("client_id", configuration.clientID))
        case .secretBasic(let secret):
            let credentials = FormURLEncoding.escape(configuration.clientID) + ":" + FormURLEncoding.escape(secret)
            headers.append(("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()))
        case .secretPost(let secret):
            pairs.append(("client_id", configuration.clientID))
            pairs.append(("client_secret", secret))
        case .privateKeyJWT, .secretJWT:
            guard let signer = assertionSigner else { throw HAAPIError(.crypto, "the client assertion key is not loaded") }
            pairs.append(("client_id", configuration.clientID))
            pairs.append(("client_assertion_type", ClientAssertion.type))
            pairs.append(
                ("client_assertion", try ClientAssertion.make(clientID: configuration.clientID, audience: context.endpoints.token, signer: signer))
            )
        }
        return HTTPRequestData(method: "POST", url: url, headers: headers, body: Data(FormURLEncoding.encode(pairs).utf8))
    }

    private static func json(of response: HTTPResponseData) -> JSONValue? {
        guard !response.body.isEmpty else { return nil }
        guard let value = try? JSONParser.parse(response.body), case .object = value else { return nil }
        return value
    }
}
