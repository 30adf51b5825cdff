import Foundation

extension HAAPIFlow {
    /// Everything this flow holds, as a value to save: restore it with ``HAAPIClient/restoreFlow(_:)`` here or in another
    /// process (see ``HAAPIFlowState``).
    ///
    /// The snapshot is taken on the flow's actor, so it is consistent; take it when no call of this flow is under way
    /// (after a `submitForm`/`followAutomaticSteps` returned), since a call in progress changes the flow when its answer
    /// comes, and that answer belongs to this flow only.
    ///
    /// > Important: The state carries the flow's DPoP private key and other secrets: store it encrypted, never log it.
    /// - Returns: The state.
    public func exportState() -> HAAPIFlowState {
        exportState(leavingOut: nil).state
    }

    /// ``exportState()`` for a caller that keeps the current step itself: when the flow's current step equals `step`,
    /// the state's ``HAAPIFlowState/currentStep`` is nil instead of a second copy of its text (the largest part of a
    /// state), and the caller hands `step` to ``HAAPIClient/restoreFlow(_:currentStep:)``.
    /// - Returns: The state, and whether its current step was left out.
    public func exportState(leavingOut step: Representation?) -> (state: HAAPIFlowState, leftOutCurrentStep: Bool) {
        let leftOut = step != nil && currentStep == step
        return (state(currentStepText: leftOut ? nil : currentStep.map { StepJSON.json(of: $0).jsonText }), leftOut)
    }

    /// The flow's state, its current step written as `currentStepText`.
    private func state(currentStepText: String?) -> HAAPIFlowState {
        let now = Date()
        let instant = clock.now
        let token = tokenMachine.cached.map { cached in
            let remaining = instant.duration(to: cached.expiresAt).components
            let seconds = Double(remaining.seconds) + Double(remaining.attoseconds) / 1e18
            // Whole seconds, so that exporting an unchanged flow twice gives equal states (a store writes only what
            // changed): rounded down (the token counts as expiring up to a second early), with a millisecond's slack so
            // that an expiry restored from a saved state, read back through this process's clocks, exports as itself.
            let expiry = (now.timeIntervalSince1970 + seconds + 0.001).rounded(.down)
            return HAAPIFlowState.Token(
                value: cached.token.value,
                tokenType: cached.token.tokenType,
                expiresIn: cached.token.expiresIn,
                expiresAt: Date(timeIntervalSince1970: expiry)
            )
        }
        let keyPEM = dpopKeyPEM ?? dpopKey.privateKeyPEM
        dpopKeyPEM = keyPEM
        return HAAPIFlowState(
            formatVersion: HAAPIFlowState.currentFormatVersion,
            clientID: context.configuration.clientID,
            upstreamOrigin: OriginGuard.origin(of: context.configuration.baseURL),
            dpopPrivateKeyPEM: keyPEM,
            haapiToken: token,
            sessionID: sessionID,
            dpopNonce: dpopNonce,
            cookies: cookies.storedCookies.map(HAAPIFlowState.Cookie.init),
            codeVerifier: pkce.verifier,
            oauthState: state,
            oidcNonce: oidcNonce,
            scopes: scopes,
            authorizationParameters: authorizationParameters,
            currentStep: currentStepText,
            lastSubmittedAction: lastSubmittedAction.map { StepJSON.json(of: $0).jsonText },
            started: started,
            codeExchanged: codeExchanged,
            authorizeCarriedDPoPJKT: authorizeCarriedDPoPJKT
        )
    }

    /// A flow of `context`'s client made from a saved state: checks its format and that it belongs to this client and
    /// upstream, loads the key, and decodes the step through the client's step decoder (and shared step cache, so that
    /// restored flows at the same step share one copy of it) and the last submitted action with the client's
    /// ``HAAPIClientConfiguration/keepsRawJSON`` setting.
    /// - Throws: ``HAAPIError/Code/invalidFlowState`` when any of it fails.
    /// - Parameter currentStep: The step, when the state was exported without it (``exportState(leavingOut:)``).
    static func restore(_ saved: HAAPIFlowState, context: HAAPIClientContext, currentStep: Representation?) throws(HAAPIError) -> HAAPIFlow {
        try HAAPIFlowState.checkFormatVersion(saved.formatVersion)
        let configuration = context.configuration
        guard saved.clientID == configuration.clientID else {
            throw HAAPIError(.invalidFlowState, "the saved flow state belongs to another client id than this client's")
        }
        let origin = OriginGuard.origin(of: configuration.baseURL)
        guard saved.upstreamOrigin == origin else {
            throw HAAPIError(.invalidFlowState, "the saved flow state belongs to another upstream than \(origin)")
        }
        let key: DPoPKey
        do throws(HAAPIError) {
            key = try DPoPKey(pem: saved.dpopPrivateKeyPEM)
        } catch {
            throw HAAPIError(.invalidFlowState, "the saved flow state's DPoP key does not load as a P-256 private key")
        }
        guard !saved.codeVerifier.isEmpty, !saved.oauthState.isEmpty else {
            throw HAAPIError(.invalidFlowState, "the saved flow state has no PKCE verifier or no state")
        }
        var step = currentStep
        if let text = saved.currentStep {
            do throws(HAAPIError) {
                step = try context.decodeStep(jsonText: text)
            } catch {
                throw HAAPIError(.invalidFlowState, "the saved flow state's current step does not decode: \(error.message)")
            }
        }
        var action: Action?
        if let text = saved.lastSubmittedAction {
            do throws(HAAPIError) {
                action = try Action(json: try JSONValue.parse(Data(text.utf8)), keepingRawJSON: configuration.keepsRawJSON)
            } catch {
                throw HAAPIError(.invalidFlowState, "the saved flow state's last submitted action does not decode: \(error.message)")
            }
        }
        let flow = HAAPIFlow(context: context, restoring: saved, dpopKey: key, currentStep: step, lastSubmittedAction: action)
        flow.logger.debug("HAAPI flow restored from a saved state")
        return flow
    }
}
