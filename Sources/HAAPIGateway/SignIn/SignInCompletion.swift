import Foundation
import HAAPI
import Logging

/// The end of a sign-in that reached its authorization response: the code exchanged, the ID token validated, the
/// configured claims gathered (userinfo included), and for a device the tokens left for its next poll. What it
/// produces is the outcome for the sinks, or why the sign-in failed; the session applies it (``SignInSession``).
///
/// Every upstream call is bounded by one upstream timeout, within what the page has left (``HAAPIDeadline``).
struct SignInCompletion: Sendable {
    /// How a completion ended.
    enum Result: Sendable {
        /// Signed in: the outcome the sinks get.
        case signedIn(CompletionOutcome, tokenType: String)
        /// A device signed in: the tokens wait for its poll, and the sinks get the outcome (without them) as `deliveries`
        /// (``CallbackDispatcher/prepare(_:)``), which the device store kept with its approval when `keptWithApproval`.
        case handedToDevice(CompletionOutcome, deliveries: [CallbackEntry], keptWithApproval: Bool, tokenType: String)
        /// Not signed in: what the person is told, and the outcome's error.
        case failed(PageText, CompletionOutcome.Failure)
    }

    let flow: HAAPIFlow
    /// Where the outcome goes: a device's is made here, to be kept with its approval.
    let dispatcher: CallbackDispatcher
    let outcomeSettings: OutcomeSettings
    /// The device the sign-in is for, if any: it gets the tokens instead of the sinks.
    let device: DeviceSignIn?
    let signIn: SignInReference
    /// What is known of the upstream's codes (token-bound or not), shared with the other replicas.
    let facts: UpstreamFactKeeper?
    let metrics: GatewayMetrics
    let logger: FlowLogger

    /// Completes the sign-in of `response`, the flow's authorization response.
    func complete(_ response: Representation) async -> Result {
        let outcome: TokenExchangeOutcome
        // What another replica (or an earlier process) learned about the upstream's codes, while this one does not know.
        await facts?.refreshIfUnknown()
        let started = ContinuousClock.now
        do {
            // The exchange (and its one retry) within one upstream timeout as a whole.
            outcome = try await HAAPIDeadline.within(flow.requestTimeout) { () async throws(HAAPIError) -> TokenExchangeOutcome in
                try await flow.exchangeCode(from: response)
            }
            metrics.upstreamCall(.token, took: ContinuousClock.now - started)
        } catch {
            let code = (error as? HAAPIError)?.code ?? .transport
            metrics.upstreamError(kind: "\(code)")
            logger.warning("code exchange failed", metadata: ["error": "\(code)"])
            return .failed(
                .gateway(.signInNotCompleted),
                .init(error: "code_exchange_failed", errorDescription: "the authorization code could not be exchanged (\(code))")
            )
        }
        guard let tokens = outcome.tokens else { return await refused(outcome.oauthError) }
        // OpenID Connect Core 1.0 §3.1.3.7: the ID token is validated before any of its claims is trusted; tokens whose ID
        // token fails are not handed over (an application could not tell whom they belong to).
        let idToken: ValidatedIDToken?
        do {
            idToken = try await HAAPIDeadline.within(flow.requestTimeout) { () async throws(IDTokenValidationError) -> ValidatedIDToken? in
                try await flow.validateIDToken(of: tokens)
            }
        } catch {
            let refusal = error as? IDTokenValidationError ?? IDTokenValidationError(.keySetUnavailable, "the ID token could not be validated")
            metrics.upstreamError(kind: GatewayMetrics.invalidIDTokenKind)
            logger.warning("ID token refused; no tokens are handed over", metadata: ["reason": "\(refusal.reason.rawValue)"])
            return .failed(.gateway(.idTokenRefused), .init(error: "invalid_id_token", errorDescription: refusal.message))
        }
        let identity = await identity(of: tokens, idToken: idToken)
        guard let device else { return .signedIn(.success(tokens, signIn: signIn, identity: identity), tokenType: tokens.tokenType) }
        // The device collects the tokens with its next poll; a code that expired meanwhile gets none. The outcome's
        // deliveries are kept with the approval where the store can (both, or neither, when the gateway is killed).
        let signedIn = CompletionOutcome.handedToDevice(signIn: signIn, identity: identity)
        let deliveries = await dispatcher.prepare(signedIn) ?? []
        let approval = await handOver(tokens, to: device, keeping: deliveries)
        switch approval?.approved {
        case true?:
            return .handedToDevice(signedIn, deliveries: deliveries, keptWithApproval: approval?.outcomeKept == true, tokenType: tokens.tokenType)
        case false?:
            return .failed(
                .gateway(.deviceCodeExpired),
                .init(error: "expired_token", errorDescription: "the device code expired before the sign-in finished")
            )
        case nil:
            return .failed(
                .gateway(.deviceHandOverFailed),
                .init(error: "temporarily_unavailable", errorDescription: "the device authorization could not be updated in the gateway's store")
            )
        }
    }

    /// The token endpoint refused the code: its error is the outcome.
    private func refused(_ error: OAuthErrorResponse?) async -> Result {
        var message = PageText.gateway(.tokensRefused)
        if error?.error == "invalid_grant", await flow.codeExchangeProvedAfterRefusal {
            // Token-bound codes ([TOKENBIND], notes 5): the exchange without a proof was refused (`invalid_dpop_proof`),
            // and the retry with one was answered `invalid_grant`: the upstream used the code up when it refused it
            // (Curity does not document whether it does). The client proves every later exchange at once.
            message = .gateway(.tokenBoundCodeUsedUp)
            logger.warning(
                "the upstream issues token-bound authorization codes and used this sign-in's code up when it refused its exchange without a DPoP proof: this sign-in failed (invalid_grant); the next sign-ins prove every exchange at once, and \(ConfigurationKey.upstreamBindTokensToDPoP.path): true avoids even this one",
                metadata: ["error": "invalid_grant"]
            )
        } else {
            logger.warning("token endpoint refused the code", metadata: ["error": .untrusted(error?.error ?? "unknown")])
        }
        return .failed(message, .init(error: error?.error ?? "invalid_grant", errorDescription: error?.errorDescription, errorUri: error?.errorURI))
    }

    /// The subject and the configured claims (``OutcomeSettings``): from the validated ID token, and from userinfo, fetched
    /// once and only when userinfo claims are configured (Core §5.3). A claim asked for but absent is left out; when claims
    /// could not be had, `claimsProblem` says why (the sign-in still succeeds).
    private func identity(of tokens: OAuthTokens, idToken: ValidatedIDToken?) async -> CompletionOutcome.Identity {
        var identity = CompletionOutcome.Identity(subject: idToken?.subject)
        guard outcomeSettings.mapsClaims else { return identity }
        var claims: [String: JSONValue] = [:]
        var problems: [String] = []
        if !outcomeSettings.idTokenClaims.isEmpty {
            if let idToken {
                for name in outcomeSettings.idTokenClaims { claims[name] = idToken.claims[name] }
            } else {
                problems.append("id_token: the token response has no ID token")
            }
        }
        if !outcomeSettings.userinfoClaims.isEmpty {
            let started = ContinuousClock.now
            do {
                let answer = try await HAAPIDeadline.within(flow.requestTimeout) { () async throws(HAAPIError) -> [String: JSONValue] in
                    try await flow.userinfo(with: tokens, subject: idToken?.subject)
                }
                metrics.upstreamCall(.userinfo, took: ContinuousClock.now - started)
                for name in outcomeSettings.userinfoClaims { claims[name] = answer[name] }
            } catch {
                let failure = error as? HAAPIError ?? HAAPIError(.transport, "the userinfo endpoint could not be reached")
                metrics.upstreamError(kind: "\(failure.code)")
                logger.warning("userinfo not fetched; the outcome says so", metadata: ["error": "\(failure.code)"])
                problems.append("userinfo: \(failure.message)")
            }
        }
        identity.claims = claims
        identity.claimsProblem = problems.isEmpty ? nil : problems.joined(separator: "; ")
        return identity
    }

    /// Leaves the tokens for the device's next poll, with the outcome's `deliveries` where the store keeps them: approved
    /// when they wait there, not when the code is no longer waiting for them (expired, or decided otherwise), nil when
    /// the store could not be reached (a shared store's database, tried up to three times within about two seconds,
    /// while the page's budget lasts).
    private func handOver(_ tokens: OAuthTokens, to device: DeviceSignIn, keeping deliveries: [CallbackEntry]) async -> DeviceApproval? {
        for pause in [Duration.milliseconds(250), .seconds(1), .zero] {
            do {
                return try await device.store.approve(reference: device.reference, tokens: tokens, keepingOutcome: deliveries)
            } catch {
                // Tried again while the page's budget lasts.
                let withinBudget = HAAPIDeadline.current.map { ContinuousClock.now + pause < $0 } ?? true
                guard pause > .zero, withinBudget else { break }
                try? await Task.sleep(for: pause)
            }
        }
        logger.error("the device's tokens could not be handed over: the store did not answer; the device is told access_denied if it can be")
        return nil
    }
}
