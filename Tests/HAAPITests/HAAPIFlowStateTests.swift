import Foundation
import Testing

@testable import HAAPI

/// A flow saved with `exportState()` and restored with `restoreFlow(_:)` by another client, against an in-test server
/// that records what a restored flow sends: the same key, token, session id, cookies, nonce, PKCE verifier and state.
@Suite("A flow's saved state")
struct HAAPIFlowStateTests {
    typealias Up = TestUpstream

    /// HAAPI tokens `haapi-token-N` with nonce `token-nonce-N`; the authorize answer sets a session id, two cookies and a
    /// nonce; the login form answers the authorization response for the authorize request's `state`; the code exchange
    /// answers tokens.
    static let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, log in
        switch request.path {
        case Up.tokenPath where request.formValues["grant_type"] == "client_credentials":
            let count = await log.requests(path: Up.tokenPath).filter { $0.formValues["grant_type"] == "client_credentials" }.count
            var reply = ScriptedReply.haapiToken("haapi-token-\(count)")
            reply.headers.append(("DPoP-Nonce", "token-nonce-\(count)"))
            return reply
        case Up.tokenPath:
            return .json(200, #"{"access_token":"final-at","token_type":"Bearer","expires_in":300}"#)
        case Up.authorizePath:
            return .step(
                Up.loginStep,
                headers: [
                    ("Set-Session-Id", "session-one"), ("DPoP-Nonce", "authorize-nonce"), ("Set-Cookie", "node=sticky-one; Path=/"),
                    ("Set-Cookie", "route=deep-one; Path=/authn; Max-Age=600"),
                ]
            )
        case Up.loginPath:
            let state = await log.requests(path: Up.authorizePath).last?.queryValues["state"] ?? ""
            return .step(Up.authorizationResponseStep(state: state))
        default:
            return ScriptedReply(status: 404)
        }
    }

    static func proof(_ request: RecordedRequest) throws -> IndependentJWSVerifier.Verified {
        try IndependentJWSVerifier.verifyWithEmbeddedJWK(try #require(request.header("DPoP")))
    }

    /// Starts a flow of a first client, saves it, shuts that client down and returns the state through JSON.
    static func savedAtLoginForm(
        _ base: URL,
        _ configure: (inout HAAPIClientConfiguration) -> Void = { _ in }
    ) async throws -> (HAAPIFlowState, PublicJWK) {
        let first = try await Up.client(base, configure)
        let flow = first.makeFlow()
        _ = try await flow.start()
        let saved = await flow.exportState()
        try await first.shutdown()
        return (try JSONDecoder().decode(HAAPIFlowState.self, from: try JSONEncoder().encode(saved)), flow.dpopPublicJWK)
    }

    @Test("JSON round trip: encoding and decoding gives an equal state; the restored flow saves the same state again")
    func jsonRoundTrip() async throws {
        try await ScriptedUpstream.run(Self.handler) { base, _ in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = client.makeFlow()
            _ = try await flow.start()
            let saved = await flow.exportState()
            #expect(saved.formatVersion == HAAPIFlowState.currentFormatVersion)
            #expect(saved.haapiToken?.value == "haapi-token-1" && saved.sessionID == "session-one" && saved.dpopNonce == "authorize-nonce")
            #expect(saved.cookies.map(\.name) == ["node", "route"] && saved.cookies[1].expires != nil)
            #expect(saved.started && !saved.codeExchanged && saved.currentStep != nil)

            let decoded = try JSONDecoder().decode(HAAPIFlowState.self, from: try JSONEncoder().encode(saved))
            #expect(decoded == saved)

            // Exported again, unchanged, and restored and exported: the same state to the bit (the expiry, which passes
            // through this process's monotonic clock, is kept in whole seconds), so a store can tell a changed flow.
            #expect(await flow.exportState() == saved)
            let again = await (try client.restoreFlow(decoded)).exportState()
            #expect(again == saved)
            #expect(try #require(saved.haapiToken?.expiresAt).timeIntervalSince1970.truncatingRemainder(dividingBy: 1) == 0)
        }
    }

    @Test("a flow restored by another client sends the same token, key, nonce, session id and cookies, and exchanges with the same verifier")
    func restoredFlowContinuesAsTheOriginal() async throws {
        try await ScriptedUpstream.run(Self.handler) { base, log in
            let (saved, originalJWK) = try await Self.savedAtLoginForm(base)
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = try client.restoreFlow(saved)
            #expect(flow.dpopPublicJWK == originalJWK)
            let action = try #require(await flow.currentStep?.actions.first)
            let done = try #require(try await flow.submitForm(action, parameters: ["userName": "demo", "password": "demo"]).representation)

            let login = try #require(await log.requests(path: Up.loginPath).last)
            #expect(login.header("Authorization") == "DPoP haapi-token-1")
            #expect(login.header("Session-Id") == "session-one")
            #expect(login.header("Cookie") == "route=deep-one; node=sticky-one")
            let proof = try Self.proof(login)
            #expect(proof.claims["nonce"] as? String == "authorize-nonce")
            #expect(proof.header["jwk"] as? [String: String] == ["kty": "EC", "crv": "P-256", "x": originalJWK.x, "y": originalJWK.y])
            #expect(await log.requests(path: Up.tokenPath).count == 1, "the saved HAAPI token is used, not a new one")

            #expect(try await flow.exchangeCode(from: done).tokens?.accessToken == "final-at")
            let exchange = try #require(await log.requests(path: Up.tokenPath).last)
            let authorize = try #require(await log.requests(path: Up.authorizePath).first)
            #expect(exchange.formValues["code_verifier"] == saved.codeVerifier)
            #expect(PKCE.challenge(for: saved.codeVerifier) == authorize.queryValues["code_challenge"])
            #expect(authorize.queryValues["state"] == saved.oauthState && authorize.queryValues["nonce"] == saved.oidcNonce)
            #expect(await flow.exportState().codeExchanged)
        }
    }

    @Test("a flow saved before it started starts with its own state, PKCE challenge, nonce, scopes and parameters")
    func unstartedFlowKeepsItsAuthorizeRequest() async throws {
        try await ScriptedUpstream.run(Self.handler) { base, log in
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let original = client.makeFlow(
                scopes: ["openid"],
                parameters: AuthorizationParameters(loginHint: "device-7", additional: ["x_origin": "tv"])
            )
            let saved = await original.exportState()
            #expect(!saved.started && saved.haapiToken == nil && saved.currentStep == nil)
            let flow = try client.restoreFlow(try JSONDecoder().decode(HAAPIFlowState.self, from: try JSONEncoder().encode(saved)))
            _ = try await flow.start()
            let query = try #require(await log.requests(path: Up.authorizePath).first).queryValues
            #expect(query["scope"] == "openid" && query["login_hint"] == "device-7" && query["x_origin"] == "tv" && query["acr_values"] == nil)
            #expect(query["state"] == saved.oauthState && query["nonce"] == saved.oidcNonce)
            #expect(query["code_challenge"] == PKCE.challenge(for: saved.codeVerifier))
            // A started flow cannot start again, restored or not.
            await #expect(throws: HAAPIError.self) { _ = try await flow.start() }
        }
    }

    @Test("a saved HAAPI token that has expired is replaced: the restored flow's next call fetches a new one")
    func expiredTokenIsReplaced() async throws {
        try await ScriptedUpstream.run(Self.handler) { base, log in
            var (saved, _) = try await Self.savedAtLoginForm(base)
            saved.haapiToken?.expiresAt = Date(timeIntervalSinceNow: -30)
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            let flow = try client.restoreFlow(saved)
            let action = try #require(await flow.currentStep?.actions.first)
            _ = try await flow.submitForm(action, parameters: ["userName": "demo", "password": "demo"])
            let tokenRequests = await log.requests(path: Up.tokenPath)
            #expect(tokenRequests.count == 2)
            // The new token is fetched by the same key, with the flow's nonce.
            let proof = try Self.proof(try #require(tokenRequests.last))
            #expect(proof.claims["nonce"] as? String == "authorize-nonce")
            let login = try #require(await log.requests(path: Up.loginPath).last)
            #expect(login.header("Authorization") == "DPoP haapi-token-2")
            #expect(
                try Self.proof(login).header["jwk"] as? [String: String]
                    == (try Self.proof(try #require(tokenRequests.first)).header["jwk"] as? [String: String])
            )
            #expect(await flow.exportState().haapiToken?.value == "haapi-token-2")
        }
    }

    @Test("a state of an unknown format version is refused, when decoded and when restored")
    func unknownFormatVersionIsRefused() async throws {
        try await ScriptedUpstream.run(Self.handler) { base, _ in
            var (saved, _) = try await Self.savedAtLoginForm(base)
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            saved.formatVersion = 2
            let refused = #expect(throws: HAAPIError.self) { _ = try client.restoreFlow(saved) }
            #expect(refused?.code == .invalidFlowState)
            #expect(refused?.message.contains("format version 2") == true)

            // A later format may have other members: decoding reads the version first and refuses with the same error.
            var object = try #require(try JSONSerialization.jsonObject(with: try JSONEncoder().encode(saved)) as? [String: Any])
            object["dpopPrivateKeyPEM"] = nil
            object["dpopKey"] = ["kty": "EC"]
            let later = try JSONSerialization.data(withJSONObject: object)
            let decodeRefused = #expect(throws: HAAPIError.self) { _ = try JSONDecoder().decode(HAAPIFlowState.self, from: later) }
            #expect(decodeRefused?.code == .invalidFlowState)
        }
    }

    @Test("a state whose key does not load, of another client or upstream, or with a broken step is refused")
    func brokenStatesAreRefused() async throws {
        try await ScriptedUpstream.run(Self.handler) { base, _ in
            let (saved, _) = try await Self.savedAtLoginForm(base)
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            #expect(saved.dpopPrivateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            let lines = saved.dpopPrivateKeyPEM.split(separator: "\n").map(String.init)
            let corruptions: [(String, (inout HAAPIFlowState) -> Void)] = [
                (
                    "a corrupt key",
                    {
                        $0.dpopPrivateKeyPEM = lines.map { $0.hasPrefix("-----") ? $0 : String(repeating: "A", count: $0.count) }.joined(
                            separator: "\n"
                        )
                    }
                ),
                ("a truncated key", { $0.dpopPrivateKeyPEM = lines.dropLast(2).joined(separator: "\n") }),
                ("no key", { $0.dpopPrivateKeyPEM = "" }),
                ("another client id", { $0.clientID = "another-client" }),
                ("another upstream", { $0.upstreamOrigin = "https://login.example.com:443" }),
                ("a step that is not JSON", { $0.currentStep = "{\"type\":" }),
                ("a step without a type", { $0.currentStep = "{\"actions\":[]}" }),
                ("an action without a template", { $0.lastSubmittedAction = "{\"kind\":\"login\"}" }),
                ("no PKCE verifier", { $0.codeVerifier = "" }),
            ]
            for (name, corrupt) in corruptions {
                var state = saved
                corrupt(&state)
                let refused = #expect(throws: HAAPIError.self, "\(name)") { _ = try client.restoreFlow(state) }
                #expect(refused?.code == .invalidFlowState, "\(name)")
            }
            // The untouched state is restored by the same client.
            #expect(try client.restoreFlow(saved).dpopPublicJWK == DPoPKey(pem: saved.dpopPrivateKeyPEM).publicJWK)
        }
    }

    @Test("a restored flow saves its key as the text it was restored from (a SEC1 key stays SEC1), a new flow the same text each time")
    func restoredFlowKeepsItsKeyText() async throws {
        try await ScriptedUpstream.run(Self.handler) { base, _ in
            let (saved, publicJWK) = try await Self.savedAtLoginForm(base)
            let client = try await Up.client(base)
            defer { Task { try? await client.shutdown() } }
            // The same key as SEC1 (`EC PRIVATE KEY`, RFC 5915), which a state written elsewhere may hold.
            let key = try DPoPKey(pem: saved.dpopPrivateKeyPEM).privateKey
            let der: [UInt8] =
                [0x30, 0x77, 0x02, 0x01, 0x01, 0x04, 0x20] + Array(key.rawRepresentation)
                + [0xA0, 0x0A, 0x06, 0x08, 0x2A, 0x86, 0x48, 0xCE, 0x3D, 0x03, 0x01, 0x07, 0xA1, 0x44, 0x03, 0x42, 0x00]
                + Array(key.publicKey.x963Representation)
            let body = Data(der).base64EncodedString(options: [.lineLength64Characters, .endLineWithLineFeed])
            var sec1 = saved
            sec1.dpopPrivateKeyPEM = "-----BEGIN EC PRIVATE KEY-----\n\(body)\n-----END EC PRIVATE KEY-----"
            let restored = try client.restoreFlow(sec1)
            #expect(restored.dpopPublicJWK == publicJWK)
            #expect(await restored.exportState().dpopPrivateKeyPEM == sec1.dpopPrivateKeyPEM)

            let fresh = client.makeFlow()
            let first = await fresh.exportState().dpopPrivateKeyPEM
            #expect(first.hasPrefix("-----BEGIN PRIVATE KEY-----"))
            #expect(await fresh.exportState().dpopPrivateKeyPEM == first)
            #expect(try DPoPKey(pem: first).publicJWK == fresh.dpopPublicJWK)
        }
    }

    @Test("printing a state, or its token and cookies, shows no key, token, verifier, nonce, session id or cookie value")
    func printingShowsNoSecret() async throws {
        try await ScriptedUpstream.run(Self.handler) { base, _ in
            let (saved, _) = try await Self.savedAtLoginForm(base)
            let token = try #require(saved.haapiToken)
            let keyBody = saved.dpopPrivateKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
            let secrets =
                [
                    saved.dpopPrivateKeyPEM, String(keyBody.prefix(24)), String(keyBody.suffix(24)), token.value, saved.codeVerifier,
                    saved.oauthState,
                    try #require(saved.oidcNonce), try #require(saved.dpopNonce), try #require(saved.sessionID),
                ] + saved.cookies.map(\.value)
            var dumped = ""
            dump(saved, to: &dumped)
            var dumpedToken = ""
            dump(token, to: &dumpedToken)
            let printed =
                [
                    String(describing: saved), String(reflecting: saved), dumped, "\(saved)", String(describing: token), String(reflecting: token),
                    dumpedToken,
                ] + saved.cookies.flatMap { [String(describing: $0), String(reflecting: $0)] }
            for text in printed {
                for secret in secrets {
                    #expect(!text.contains(secret), "a secret is printed in: \(text.prefix(60))…")
                }
            }
            #expect(String(describing: saved).contains("redacted"))
            #expect(dumped.contains("clientID"), "dump still shows what is not secret")
        }
    }

    @Test("a continue-same-step answered before the state was saved continues with the saved form's continue actions", arguments: [false, true])
    func continueSameStepAfterRestore(keepsRawJSON: Bool) async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath: .haapiToken()
            case Up.authorizePath: .step(CurityWireTests.sendCodeStep)
            case "/authn/sms/send": CurityWireTests.continueSame("SMS sent")
            default: ScriptedReply(status: 404)
            }
        }
        try await ScriptedUpstream.run(handler) { base, _ in
            let configure: (inout HAAPIClientConfiguration) -> Void = { $0.keepsRawJSON = keepsRawJSON }
            let first = try await Up.client(base, configure)
            defer { Task { try? await first.shutdown() } }
            let flow = first.makeFlow()
            let send = try #require(try await flow.start().representation?.actions.first)
            #expect(!send.continueActions.isEmpty)
            let answer = try await flow.submitForm(send)
            #expect(answer.representation?.stepKind == .continueSame)
            let saved = try JSONDecoder().decode(HAAPIFlowState.self, from: try JSONEncoder().encode(await flow.exportState()))
            #expect(saved.lastSubmittedAction != nil)

            let second = try await Up.client(base, configure)
            defer { Task { try? await second.shutdown() } }
            let restored = try second.restoreFlow(saved)
            let expected = try #require(try await flow.followAutomaticSteps(from: answer).representation)
            let continued = try #require(try await restored.followAutomaticSteps(from: answer).representation)
            #expect(continued == expected)
            #expect(continued.actions == send.continueActions, "the code form, not the send form again")
            #expect(continued.messages.first?.text == "SMS sent")
            // The continued step (made by the client, never received as such) is saved and restored too.
            #expect(await (try second.restoreFlow(await restored.exportState())).currentStep == continued)
        }
    }

    @Test("restored flows at the same step share one decoded copy in the client's step cache")
    func restoredStepsShareTheStepCache() async throws {
        try await ScriptedUpstream.run(Self.handler) { base, _ in
            let gatewayLike: (inout HAAPIClientConfiguration) -> Void = {
                $0.keepsRawJSON = false
                $0.sharedStepCacheSize = 16
            }
            let (first, _) = try await Self.savedAtLoginForm(base, gatewayLike)
            let (second, _) = try await Self.savedAtLoginForm(base, gatewayLike)
            #expect(first.currentStep == second.currentStep, "the same step is saved as the same text")
            let client = try await Up.client(base, gatewayLike)
            defer { Task { try? await client.shutdown() } }
            let one = try client.restoreFlow(first)
            #expect(client.context.stepCache.count == 1)
            #expect(
                client.context.stepCache.contains(
                    status: 200,
                    contentType: "application/vnd.auth+json",
                    body: Data(try #require(first.currentStep).utf8)
                )
            )
            let two = try client.restoreFlow(second)
            #expect(client.context.stepCache.count == 1, "the second restore takes the step from the cache")
            let step = try #require(await one.currentStep)
            #expect(await two.currentStep == step)
            #expect(step.raw == .null && step.stepKind == .interactiveForm)
        }
    }
}
