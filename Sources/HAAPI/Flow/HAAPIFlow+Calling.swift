import Foundation

extension HAAPIFlow {
    /// One HAAPI call with the flow's credentials, decoded as a step or a problem.
    func call(method: String, url: URL, body: Data?, contentType: String?, acceptLanguage: String?) async throws(HAAPIError) -> HAAPIResponse {
        let response = try await exchange(
            method: method,
            url: url,
            body: body,
            contentType: contentType,
            accept: "application/vnd.auth+json",
            acceptLanguage: acceptLanguage
        )
        let decoded = try context.stepCache.decode(
            status: response.status,
            contentType: response.header("Content-Type"),
            body: response.body,
            keepingRawJSON: context.configuration.keepsRawJSON
        )
        if case .representation(let step) = decoded, step.stepKind != .continueSame {
            currentStep = step
        }
        return decoded
    }

    /// One request with the flow's credentials: the HAAPI token (`Authorization: DPoP`), a fresh proof with the flow's
    /// nonce, the flow's `Session-Id` and upstream cookies. Answers one `use_dpop_nonce` challenge and one rejected token;
    /// keeps the latest `Set-Session-Id`, `DPoP-Nonce` and cookies of every response.
    func exchange(
        method: String,
        url: URL,
        body: Data?,
        contentType: String?,
        accept: String,
        acceptLanguage: String?
    ) async throws(HAAPIError) -> HTTPResponseData {
        var retriedForNonce = false
        var refetchedToken = false
        while true {
            let token = try await haapiToken()
            let proof = try DPoPProofing(key: dpopKey, nonce: dpopNonce).proof(method: method, url: url, accessToken: token.value)
            var headers: [(name: String, value: String)] = [("Accept", accept), ("Authorization", "DPoP " + token.value), ("DPoP", proof)]
            if let contentType { headers.append(("Content-Type", contentType)) }
            if let acceptLanguage, !acceptLanguage.isEmpty { headers.append(("Accept-Language", acceptLanguage)) }
            if let sessionID { headers.append(("Session-Id", sessionID)) }
            if let cookie = cookies.cookieHeader(for: url) { headers.append(("Cookie", cookie)) }
            let response = try await context.send(HTTPRequestData(method: method, url: url, headers: headers, body: body))
            remember(response, from: url)
            if response.status == 401, let challenge = response.header("WWW-Authenticate"), challenge.lowercased().hasPrefix("dpop") {
                let error = Self.challengeError(challenge)
                switch error {
                case "use_dpop_nonce"?:
                    // RFC 9449 §9: 401 with a fresh DPoP-Nonce; rebuild the proof and retry once [DPOPNONCE].
                    if !retriedForNonce, response.header("DPoP-Nonce") != nil {
                        retriedForNonce = true
                        logger.debug("HAAPI call asked for a DPoP nonce; retrying once")
                        continue
                    }
                    throw HAAPIError(
                        .dpopRejected,
                        "the upstream demanded a DPoP nonce (use_dpop_nonce) again after one retry, or without sending one",
                        status: 401
                    )
                case "invalid_token"?:
                    switch tokenMachine.tokenRejected(token, alreadyRefetched: refetchedToken) {
                    case .fetch:
                        refetchedToken = true
                        logger.debug("HAAPI token rejected; fetching a new one")
                        continue
                    case .fail(let error):
                        throw error
                    case .useCached:
                        continue
                    }
                default:
                    throw HAAPIError(.dpopRejected, "the upstream rejected the DPoP proof or token (\(error ?? "no error code"))", status: 401)
                }
            }
            return response
        }
    }

    /// Keeps what a response to `url` gives the flow: the session id (Curity sends it as `Set-Session-Id` [DRIVER]
    /// [SRVCLIENT]; a `Session-Id` response header is taken only when there is no `Set-Session-Id`), the DPoP nonce
    /// (RFC 9449 §8–9, on any response), and cookies (RFC 6265).
    func remember(_ response: HTTPResponseData, from url: URL) {
        if let value = response.header("Set-Session-Id") ?? response.header("Session-Id"), !value.isEmpty {
            sessionID = value
        }
        if let nonce = response.header("DPoP-Nonce"), !nonce.isEmpty { dpopNonce = nonce }
        let setCookies = response.headers.filter { $0.name.caseInsensitiveCompare("Set-Cookie") == .orderedSame }.map(\.value)
        if !setCookies.isEmpty { cookies.receive(setCookies, from: url) }
    }

    /// Posts a token request (HAAPI token, code exchange) as part of this flow: the flow's nonce and cookies go with it,
    /// and what the answer gives back is kept. A proof is sent when `prove` is true.
    func postToTokenEndpoint(
        _ form: [(String, String)],
        prove: Bool
    ) async throws(HAAPIError) -> (status: Int, json: JSONValue?, response: HTTPResponseData) {
        let url = context.endpoints.token
        var dpop: DPoPProofing? = prove ? DPoPProofing(key: dpopKey, nonce: dpopNonce) : nil
        let answer = try await TokenEndpointClient(context: context).post(form, to: url, dpop: &dpop, cookieHeader: cookies.cookieHeader(for: url))
        remember(answer.response, from: url)
        // A nonce the server gave only with a challenge that was answered is the flow's latest too.
        if let nonce = dpop?.nonce { dpopNonce = nonce }
        return answer
    }

    /// The HAAPI token to use now, fetched when missing or about to expire.
    func haapiToken() async throws(HAAPIError) -> HAAPIAccessToken {
        switch tokenMachine.tokenRequested(now: clock.now) {
        case .useCached(let token):
            return token
        case .fail(let error):
            throw error
        case .fetch:
            let requestedAt = clock.now
            let token = try await fetchHAAPIToken()
            tokenMachine.tokenFetched(token, now: requestedAt)
            return token
        }
    }

    /// The client credentials request for a DPoP-bound HAAPI token (notes 1.1, [SRVCLIENT]).
    private func fetchHAAPIToken() async throws(HAAPIError) -> HAAPIAccessToken {
        let form = [("grant_type", "client_credentials"), ("scope", "urn:se:curity:scopes:haapi")]
        let (status, json, response) = try await postToTokenEndpoint(form, prove: true)
        guard (200..<300).contains(status) else {
            let code = json?["error"]?.stringValue.map(Self.safeToken) ?? "no OAuth error"
            var error = HAAPIError(
                .upstreamStatus,
                "the token endpoint refused the HAAPI token request (\(code))",
                status: status,
                contentType: response.header("Content-Type") ?? "none"
            )
            if let sent = json?["error"]?.stringValue {
                error.oauthError = OAuthErrorResponse(
                    error: sent,
                    errorDescription: json?["error_description"]?.stringValue,
                    errorURI: json?["error_uri"]?.stringValue,
                    httpStatus: status
                )
            }
            throw error
        }
        guard let json, let value = json["access_token"]?.stringValue, !value.isEmpty else {
            throw HAAPIError.malformed(
                "the HAAPI token answer has no access_token",
                status: status,
                contentType: response.header("Content-Type") ?? "none"
            )
        }
        logger.debug("HAAPI token fetched")
        return HAAPIAccessToken(
            value: value,
            tokenType: json["token_type"]?.stringValue ?? "DPoP",
            expiresIn: TokenLifetime.seconds(in: json["expires_in"]) ?? 600
        )
    }

    /// The `error` parameter of a `WWW-Authenticate: DPoP ...` challenge, restricted to safe characters.
    static func challengeError(_ challenge: String) -> String? {
        guard let range = challenge.range(of: "error=", options: .caseInsensitive) else { return nil }
        var rest = challenge[range.upperBound...]
        if rest.hasPrefix("\"") { rest = rest.dropFirst() }
        let value = rest.prefix { $0 != "\"" && $0 != "," && $0 != " " }
        return safeToken(String(value))
    }

    /// Keeps an error code loggable: letters, digits and `_-.` only, at most 64 characters.
    static func safeToken(_ text: String) -> String {
        String(text.filter { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }.prefix(64))
    }
}
