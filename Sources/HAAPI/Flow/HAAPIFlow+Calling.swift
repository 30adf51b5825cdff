import Foundation

extension HAAPIFlow {
    /// One HAAPI call with the flow's headers, DPoP proof, nonce retry and HAAPI token re-fetch.
    func call(method: String, url: URL, body: Data?, contentType: String?, acceptLanguage: String?) async throws(HAAPIError) -> HAAPIResponse {
        var retriedForNonce = false
        var refetchedToken = false
        while true {
            let token = try await haapiToken()
            let proof = try DPoPProof.make(key: dpopKey, method: method, url: url, accessToken: token.value, nonce: context.nonceStore.nonce(for: url))
            var headers: [(name: String, value: String)] = [
                ("Accept", "application/vnd.auth+json"), ("Authorization", "DPoP " + token.value), ("DPoP", proof),
            ]
            if let contentType { headers.append(("Content-Type", contentType)) }
            if let acceptLanguage, !acceptLanguage.isEmpty { headers.append(("Accept-Language", acceptLanguage)) }
            if let sessionID { headers.append(("Session-Id", sessionID)) }
            let response = try await context.send(HTTPRequestData(method: method, url: url, headers: headers, body: body))
            if let newSessionID = response.header("Session-Id"), !newSessionID.isEmpty { sessionID = newSessionID }
            if response.status == 401, let challenge = response.header("WWW-Authenticate"), challenge.lowercased().hasPrefix("dpop") {
                let error = Self.challengeError(challenge)
                switch error {
                case "use_dpop_nonce"?:
                    if !retriedForNonce, response.header("DPoP-Nonce") != nil {
                        retriedForNonce = true
                        logger.debug("HAAPI call asked for a DPoP nonce; retrying once")
                        continue
                    }
                    throw HAAPIError(.dpopRejected, "the upstream demanded a DPoP nonce (use_dpop_nonce) again after one retry, or without sending one", status: 401)
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
            let decoded = try context.stepCache.decode(
                status: response.status, contentType: response.header("Content-Type"), body: response.body,
                keepingRawJSON: context.configuration.keepsRawJSON)
            if case .representation(let step) = decoded, step.stepKind != .continueSame {
                currentStep = step
            }
            return decoded
        }
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

    private func fetchHAAPIToken() async throws(HAAPIError) -> HAAPIAccessToken {
        let client = TokenEndpointClient(context: context)
        let form = [("grant_type", "client_credentials"), ("scope", "urn:se:curity:scopes:haapi")]
        let (status, json, response) = try await client.post(form, to: context.endpoints.token, dpopKey: dpopKey)
        guard (200..<300).contains(status) else {
            let code = json?["error"]?.stringValue.map(Self.safeToken) ?? "no OAuth error"
            throw HAAPIError(.upstreamStatus, "the token endpoint refused the HAAPI token request (\(code))", status: status, contentType: response.header("Content-Type") ?? "none")
        }
        guard let json, let value = json["access_token"]?.stringValue, !value.isEmpty else {
            throw HAAPIError.malformed("the HAAPI token answer has no access_token", status: status, contentType: response.header("Content-Type") ?? "none")
        }
        logger.debug("HAAPI token fetched")
        return HAAPIAccessToken(value: value, tokenType: json["token_type"]?.stringValue ?? "DPoP", expiresIn: json["expires_in"]?.intValue ?? 600)
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
