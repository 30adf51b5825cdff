import Foundation
import HAAPI
import Logging

/// Checks a live upstream as the gateway would use it, and says in Curity's terms what to change when a sign-in cannot
/// start: discovery (where, the issuer, the endpoints), the client's authentication, the HAAPI token, DPoP nonces, the
/// authorize request (redirect URI, scopes), the first step, the ID-token algorithms, the external-browser return URL
/// and token-bound codes.
///
/// It listens on nothing, asks for two HAAPI tokens (one to check the client, one for the flow) and starts one flow, which
/// it abandons at its first step.
public struct UpstreamDoctor: Sendable {
    /// The gateway's HAAPI client configuration.
    public let configuration: HAAPIClientConfiguration
    /// Where an external browser comes back to (`<public origin>/external-browser/return`), nil without `server.publicURL`.
    public let externalBrowserReturnURL: String?
    private let logger: Logger

    /// - Parameters:
    ///   - configuration: The HAAPI client configuration, as `serve` would use it.
    ///   - publicURL: `server.publicURL`, if set.
    ///   - logger: Receives nothing secret.
    public init(configuration: HAAPIClientConfiguration, publicURL: URL?, logger: Logger = Logger(label: "haapi-gateway.doctor")) {
        self.configuration = configuration
        self.externalBrowserReturnURL = publicURL.flatMap(RequestOriginGuard.origin(of:)).map { $0 + StepPageBuilder.externalBrowserReturnPath }
        self.logger = logger
    }

    /// The client authentication method, as the gateway's `upstream.clientAuthentication` names it.
    var method: String {
        switch configuration.clientAuthentication {
        case .none: "none"
        case .secretBasic: "secret-basic"
        case .secretPost: "secret-post"
        case .secretJWT: "secret-jwt"
        case .privateKeyJWT: "private-key-jwt"
        case .mutualTLS: "mtls"
        }
    }

    /// Runs every check it can: a failure that leaves nothing further to ask ends the list there.
    public func examine() async -> DoctorReport {
        var checks: [DoctorCheck] = []
        defer { logger.debug("doctor done", metadata: ["checks": .stringConvertible(checks.count)]) }
        let client: HAAPIClient
        do throws(HAAPIError) {
            client = try await HAAPIClient(configuration: configuration, logger: logger)
        } catch {
            checks.append(discoveryFailure(error))
            return report(checks)
        }
        defer { Task { try? await client.shutdown() } }
        checks.append(discovered(client.endpoints))
        checks += await token(client)
        guard !checks.contains(where: { $0.result == .failed }) else { return report(checks) }
        checks += await firstFlow(client)
        checks += idTokenAlgorithms(client.endpoints)
        checks.append(externalBrowser())
        if let binding = tokenBinding() { checks.append(binding) }
        return report(checks)
    }

    private func report(_ checks: [DoctorCheck]) -> DoctorReport {
        DoctorReport(upstream: configuration.baseURL.absoluteString, clientID: configuration.clientID, checks: checks)
    }

    // MARK: Discovery

    private func discoveryFailure(_ error: HAAPIError) -> DoctorCheck {
        let reach = configuration.internalURL.map { " through upstream.internalURL \($0.absoluteString)" } ?? ""
        switch error.code {
        case .noDiscoveryDocument:
            if let found = error.foundIssuer {
                return .failed("discovery", error.message + ".", fix: "set upstream.baseURL to \(found), the issuer.")
            }
            return .failed(
                "discovery",
                error.message + ".",
                fix:
                    "let Curity publish its OpenID Connect metadata (\(CuritySetting.exposeMetadata)), with upstream.baseURL its issuer (the anonymous endpoint, https://<base-url>/oauth/v2/oauth-anonymous by default); or name the endpoints (upstream.endpoints.authorization, .token, .jwks)."
            )
        case .issuerMismatch:
            return .failed(
                "discovery",
                error.message + ".",
                fix:
                    "upstream.baseURL must be the issuer the document names. If that issuer's host is not how this machine reaches the server, it is Curity's external URL (\(CuritySetting.baseURL)): keep it in upstream.baseURL and set upstream.internalURL to where the server is reached."
            )
        case .connectionRefused, .nameResolution, .tls, .timeout, .transport:
            return .failed(
                "reachable",
                "the upstream could not be reached\(reach): \(error.message).",
                fix:
                    "check upstream.baseURL\(configuration.internalURL == nil ? " (or set upstream.internalURL to the URL this machine reaches the server by)" : " and upstream.internalURL"); for a certificate of a private CA, upstream.trustRootsFile."
            )
        case .invalidConfiguration:
            return .failed(
                "discovery",
                error.message + ".",
                fix: "name the endpoints on upstream.baseURL's origin (upstream.endpoints), or drop upstream.internalURL."
            )
        default:
            return .failed(
                "discovery",
                "the discovery document could not be read: \(error.message)\(error.status.map { " (HTTP \($0))" } ?? "").",
                fix: "upstream.baseURL must be the issuer; Curity publishes its metadata only with \(CuritySetting.exposeMetadata)."
            )
        }
    }

    private func discovered(_ endpoints: HAAPIEndpoints) -> DoctorCheck {
        let list = endpoints.named.map { "\($0.name) \($0.url.absoluteString)" }.joined(separator: ", ")
        if configuration.endpoints != nil {
            return .passed("discovery", "not used: the endpoints are named (issuer \(endpoints.issuer ?? "none")): \(list).")
        }
        let document = configuration.discoveryDocumentURL.absoluteString
        return .passed("discovery", "\(document) names the issuer \(endpoints.issuer ?? "(none)"): \(list).")
    }

    // MARK: The HAAPI token

    private func token(_ client: HAAPIClient) async -> [DoctorCheck] {
        do throws(HAAPIError) {
            try await client.verifyHAAPIAccess()
            return [
                .passed("client-authentication", "the token endpoint accepted the client \(configuration.clientID) (\(method))."),
                .passed("haapi-token", "a DPoP-bound HAAPI token (scope urn:se:curity:scopes:haapi) was issued."),
            ]
        } catch {
            guard let refusal = error.oauthError else {
                if [.connectionRefused, .nameResolution, .tls, .timeout, .transport].contains(error.code) {
                    return [
                        .failed(
                            "reachable",
                            "the token endpoint could not be reached: \(error.message).",
                            fix: "check upstream.baseURL and upstream.internalURL."
                        )
                    ]
                }
                return [
                    .failed(
                        "haapi-token",
                        "the HAAPI token request failed: \(error.message).",
                        fix:
                            "DPoP proofs name the server's external URL, which Curity checks them against: upstream.baseURL must be on Curity's base URL (\(CuritySetting.baseURL)), reached through upstream.internalURL when this machine uses another."
                    )
                ]
            }
            let said =
                "HTTP \(refusal.httpStatus) \(DoctorText.quoted(refusal.error))"
                + (refusal.errorDescription.map { ": \(DoctorText.quoted($0))" } ?? "")
            if refusal.error == "invalid_client" {
                return [
                    .failed(
                        "client-authentication",
                        "the token endpoint refused the client \(configuration.clientID) (\(said)).",
                        fix:
                            "the client must exist with this id and authenticate as upstream.clientAuthentication says (\(method)): \(CuritySetting.clientAuthentication(configuration.clientID, method: method))\(method.hasPrefix("secret") ? ", holding the secret in upstream.clientSecret" : "")."
                    )
                ]
            }
            return [
                .passed(
                    "client-authentication",
                    "the token endpoint did not refuse the client's authentication (it answered \(DoctorText.quoted(refusal.error)), not invalid_client)."
                ),
                .failed(
                    "haapi-token",
                    "the token endpoint refused the HAAPI token (\(said)).",
                    fix:
                        "the client needs the HAAPI capability without attestation, as a server cannot attest: \(CuritySetting.haapiWithoutAttestation(configuration.clientID))."
                ),
            ]
        }
    }

    // MARK: The flow

    private func firstFlow(_ client: HAAPIClient) async -> [DoctorCheck] {
        let flow = client.makeFlow()
        let started: HAAPIResponse
        do throws(HAAPIError) {
            started = try await flow.start()
        } catch {
            return [.failed("authorize", "the authorize request failed: \(error.message).", fix: "check upstream.baseURL and upstream.internalURL.")]
        }
        var checks = [await nonces(flow)]
        if let problem = started.problem {
            checks.append(authorizeRefused(problem, scopesSupported: client.endpoints.scopesSupported))
            return checks
        }
        checks.append(
            .passed(
                "authorize",
                "accepted for the redirect URI \(configuration.redirectURI) and the scopes \(configuration.scopes.joined(separator: " "))."
            )
        )
        do throws(HAAPIError) {
            switch try await flow.followAutomaticSteps(from: started) {
            case .representation(let step):
                checks.append(.passed("first-step", Self.describe(step)))
            case .problem(let problem):
                checks.append(
                    .failed(
                        "first-step",
                        "the first step is a problem: \(Self.describe(problem)).",
                        fix:
                            "the client's authenticators: \(CuritySetting.client(configuration.clientID))/user-authentication/allowed-authenticators."
                    )
                )
            }
        } catch {
            checks.append(
                .failed("first-step", "following the first steps failed: \(error.message).", fix: "check upstream.baseURL and upstream.internalURL.")
            )
        }
        return checks
    }

    private func nonces(_ flow: HAAPIFlow) async -> DoctorCheck {
        await flow.receivedDPoPNonce
            ? .passed(
                "dpop-nonces",
                "the server sends DPoP nonces (the client's use-legacy-dpop is false, Curity's default since 8.0); the gateway answers use_dpop_nonce."
            )
            : .passed("dpop-nonces", "the server sends no DPoP nonce (the client's use-legacy-dpop is true); the gateway works with and without.")
    }

    func authorizeRefused(_ problem: Problem, scopesSupported: [String]) -> DoctorCheck {
        let client = CuritySetting.client(configuration.clientID)
        guard problem.kind == .errorAuthorizationResponse, let error = problem.error else {
            return .failed(
                "authorize",
                "the authorize request was answered by a problem: \(Self.describe(problem)).",
                fix: "the client's Code Flow capability, Redirect URIs and Scopes: \(client)/capabilities/code, /redirect-uris, /scope."
            )
        }
        let said = DoctorText.quoted(error) + (problem.errorDescription.map { ": \(DoctorText.quoted($0))" } ?? "")
        let description = (problem.errorDescription ?? "").lowercased()
        if error == "invalid_scope" {
            let unknown = scopesSupported.isEmpty ? [] : configuration.scopes.filter { !scopesSupported.contains($0) }
            let which =
                unknown.isEmpty
                ? "each of \(configuration.scopes.joined(separator: " "))"
                : "\(unknown.joined(separator: " ")) (the server does not define \(unknown.count == 1 ? "it" : "them"): its scopes_supported lacks \(unknown.count == 1 ? "it" : "them"))"
            return .failed(
                "authorize",
                "the authorize request was refused (\(said)): a scope of upstream.scopes is not allowed.",
                fix:
                    "the client's Scopes must include \(which): \(client)/scope (\(CuritySetting.adminUI(configuration.clientID, "Scopes and Claims"))); or remove it from upstream.scopes."
            )
        }
        if description.contains("redirect") || error == "invalid_redirect_uri" {
            return .failed(
                "authorize",
                "the authorize request was refused (\(said)): the redirect URI \(configuration.redirectURI) is not registered.",
                fix:
                    "register it: \(client)/redirect-uris (\(CuritySetting.adminUI(configuration.clientID, "Redirect URIs"))); or set upstream.redirectURI to one that is."
            )
        }
        if error == "unauthorized_client" {
            return .failed(
                "authorize",
                "the authorize request was refused (\(said)).",
                fix:
                    "the client needs the Code Flow capability: \(client)/capabilities/code (\(CuritySetting.adminUI(configuration.clientID, "Client Capabilities")))."
            )
        }
        return .failed(
            "authorize",
            "the authorize request was refused (\(said)).",
            fix:
                "the client's Code Flow capability, Redirect URIs (\(configuration.redirectURI)) and Scopes (\(configuration.scopes.joined(separator: " "))): \(client)/capabilities/code, /redirect-uris, /scope."
        )
    }

    // MARK: ID tokens

    private func idTokenAlgorithms(_ endpoints: HAAPIEndpoints) -> [DoctorCheck] {
        guard configuration.scopes.contains("openid") else { return [] }
        guard endpoints.keySet != nil, endpoints.issuer != nil else {
            return [
                .failed(
                    "id-token",
                    "the server names no jwks_uri (or no issuer): ID tokens cannot be validated, so every sign-in would end with invalid_id_token.",
                    fix: "Curity publishes its keys under the anonymous endpoint (<issuer>/jwks): with named endpoints set upstream.endpoints.jwks."
                )
            ]
        }
        let advertised = endpoints.idTokenSigningAlgorithms
        guard !advertised.isEmpty else {
            return [
                .note(
                    "id-token-algorithms",
                    "the server names no id_token_signing_alg_values_supported; the gateway validates RS256/384/512, PS256/384/512, ES256/384/512 and EdDSA with Ed25519 keys."
                )
            ]
        }
        let unvalidatable = JWSAlgorithm.unvalidatable(advertised)
        let eddsa = advertised.contains("EdDSA") ? " (EdDSA is validated with Ed25519 keys, not Ed448)" : ""
        if unvalidatable.isEmpty {
            return [
                .passed(
                    "id-token-algorithms",
                    "the server signs ID tokens with \(advertised.joined(separator: ", ")); the gateway validates each\(eddsa)."
                )
            ]
        }
        let fix = "sign ID tokens with an RSA, EC or Ed25519 key: \(CuritySetting.tokenSigning)."
        if unvalidatable.count == advertised.count {
            return [
                .failed(
                    "id-token-algorithms",
                    "the server signs ID tokens only with \(unvalidatable.joined(separator: ", ")), which the gateway cannot validate.",
                    fix: fix
                )
            ]
        }
        return [
            .warning(
                "id-token-algorithms",
                "the server names \(advertised.joined(separator: ", ")); the gateway cannot validate \(unvalidatable.joined(separator: ", "))\(eddsa): a token signed so ends its sign-in with invalid_id_token.",
                fix: fix
            )
        ]
    }

    // MARK: Notes

    private func externalBrowser() -> DoctorCheck {
        let client = CuritySetting.client(configuration.clientID)
        guard let url = externalBrowserReturnURL else {
            return .note(
                "external-browser",
                "an authenticator that opens an external browser sends it back to <the gateway's origin>\(StepPageBuilder.externalBrowserReturnPath); without server.publicURL that origin is whatever the browser used.",
                fix: "set server.publicURL, then register <it>\(StepPageBuilder.externalBrowserReturnPath) in \(client)/redirect-uris."
            )
        }
        return .note(
            "external-browser",
            "an authenticator that opens an external browser sends it back to \(url) (the gateway appends it as redirect_uri, as Curity's SDKs append their registered one).",
            fix: "register \(url) in \(client)/redirect-uris (\(CuritySetting.adminUI(configuration.clientID, "Redirect URIs")))."
        )
    }

    private func tokenBinding() -> DoctorCheck? {
        guard !configuration.bindTokensToDPoP else { return nil }
        return .note(
            "token-bound-codes",
            "upstream.bindTokensToDPoP is false: a server with token-bound codes refuses the first code exchange without a proof, and the gateway proves and retries.",
            fix:
                "if the client has \(CuritySetting.client(configuration.clientID))/capabilities/haapi/issue-token-bound-authorization-code = true, set upstream.bindTokensToDPoP: true."
        )
    }

    // MARK: Descriptions

    static func describe(_ step: Representation) -> String {
        let actions = step.actions.map { action -> String in
            let title = (action.title ?? action.form?.actionTitle).map { " \"\(DoctorText.quoted($0))\"" } ?? ""
            if let options = action.selectorOptions {
                let names = options.prefix(8).map { DoctorText.quoted($0.title ?? $0.kind.rawValue) }.joined(separator: ", ")
                return "a choice of \(options.count)\(title) (\(names)\(options.count > 8 ? ", …" : ""))"
            }
            return "\(action.template) \(action.kind.rawValue)\(title)"
        }
        return "\(step.type.rawValue)" + (actions.isEmpty ? "" : ": " + actions.joined(separator: "; ")) + "."
    }

    static func describe(_ problem: Problem) -> String {
        let text = ([problem.title] + problem.messages.map(\.text) as [String?]).compactMap { $0 }.map(DoctorText.quoted).joined(separator: " ")
        return "\(problem.type)" + (text.isEmpty ? "" : " (\(text))")
    }
}
