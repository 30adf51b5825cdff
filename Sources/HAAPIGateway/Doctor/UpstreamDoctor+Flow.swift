import Foundation
import HAAPI

extension UpstreamDoctor {
    /// The authorize request and the first step, with what the flow showed of DPoP nonces.
    func firstFlow(_ client: HAAPIClient) async -> [DoctorCheck] {
        let flow = client.makeFlow()
        let started: HAAPIResponse
        do throws(HAAPIError) {
            started = try await flow.start()
        } catch {
            return [
                .failed(
                    "authorize",
                    "the authorize request (\(sent)) failed: \(error.message).",
                    fix: "check \(ConfigurationKey.upstreamBaseURL.path) and \(ConfigurationKey.upstreamInternalURL.path)."
                )
            ]
        }
        var checks = [await nonces(flow)]
        if let binding = await codeBinding(flow) { checks.append(binding) }
        if let problem = started.problem {
            checks.append(authorizeRefused(problem, scopesSupported: client.endpoints.scopesSupported))
            return checks
        }
        checks.append(.passed("authorize", "accepted for the redirect URI \(configuration.redirectURI) and the scopes \(scopes)."))
        do throws(HAAPIError) {
            switch try await flow.followAutomaticSteps(from: started) {
            case .representation(let step):
                checks.append(.passed("first-step", Self.describe(step)))
            case .problem(let problem):
                checks.append(
                    .failed(
                        "first-step",
                        "the first step is a problem: \(Self.describe(problem)).",
                        fix: "the client's authenticators: \(CuritySetting.allowedAuthenticators(configuration.clientID))."
                    )
                )
            }
        } catch {
            checks.append(
                .failed(
                    "first-step",
                    "following the first steps failed: \(error.message).",
                    fix: "check \(ConfigurationKey.upstreamBaseURL.path) and \(ConfigurationKey.upstreamInternalURL.path)."
                )
            )
        }
        return checks
    }

    /// What the flow showed of DPoP nonces, said as seen: whether the server sends one cannot be made to fail, except
    /// that token-bound codes require `use-legacy-dpop` false ([TOKENBIND]), and with it false Curity uses nonces
    /// ([DPOPNONCE]).
    private func nonces(_ flow: HAAPIFlow) async -> DoctorCheck {
        let legacy = CuritySetting.useLegacyDPoP(configuration.clientID)
        if await flow.receivedDPoPNonce {
            return .note(
                "dpop-nonces",
                "the server sent a DPoP nonce, as Curity does when the client's \(CurityNames.useLegacyDPoP) is false (the default since 8.0); the gateway answers \(CurityNames.useDPoPNonce)."
            )
        }
        if configuration.bindTokensToDPoP {
            return .warning(
                "dpop-nonces",
                "the server sent no DPoP nonce in this flow, though \(ConfigurationKey.upstreamBindTokensToDPoP.path) is true: Curity's token-bound codes require \(CurityNames.useLegacyDPoP) false, and with it false Curity uses nonces.",
                fix: "check \(legacy) = false beside \(CuritySetting.tokenBoundCodes(configuration.clientID)) = true."
            )
        }
        return .note(
            "dpop-nonces",
            "the server sent no DPoP nonce in this flow: the client's \(legacy) may be true; the gateway works with and without nonces."
        )
    }

    /// What the authorize request sent, for every reading of its outcome.
    private var sent: String { "redirect_uri \(configuration.redirectURI), scope \(scopes)" }
    private var scopes: String { configuration.scopes.joined(separator: " ") }

    /// Reads an authorize refusal by its OAuth error (and a description naming the redirect URI); a refusal that says
    /// less names every setting it could mean. A scope missing from the server's `scopes_supported` is said, with what it
    /// can mean, but does not by itself make the scope the likeliest cause: Curity's scopes may be prefixes, and a scope
    /// may be left out of the metadata.
    func authorizeRefused(_ problem: Problem, scopesSupported: [String]) -> DoctorCheck {
        let id = configuration.clientID
        let unlisted = scopesSupported.isEmpty ? [] : configuration.scopes.filter { !scopesSupported.contains($0) }
        let notAdvertised =
            unlisted.isEmpty
            ? ""
            : " (\(unlisted.joined(separator: " ")) \(unlisted.count == 1 ? "is" : "are") not advertised in the server's scopes_supported: not defined in the profile, or a prefix scope (\(CurityNames.isPrefix)) or one left out of the metadata (\(CurityNames.exposeInMetadata) false))"
        let redirect =
            "the redirect URI \(configuration.redirectURI) is not among the client's redirect URIs: \(CuritySetting.redirectURIs(id)) (\(CuritySetting.adminUI(id, CuritySetting.redirectURIPlaces))); or set \(ConfigurationKey.upstreamRedirectURI.path) to one that is"
        let scope =
            "a scope of \(scopes) is not among the client's scopes\(notAdvertised): \(CuritySetting.scope(id)) (\(CuritySetting.adminUI(id, CuritySetting.scopePlaces))); or remove it from \(ConfigurationKey.upstreamScopes.path)"
        let codeFlow =
            "the client lacks the \(CurityNames.codeFlow) capability: \(CuritySetting.codeCapability(id)) (\(CuritySetting.adminUI(id, CuritySetting.codeFlowPlaces)))"
        let causes = [redirect, scope, codeFlow]
        guard problem.kind == .errorAuthorizationResponse, let error = problem.error else {
            return .failed(
                "authorize",
                "the authorize request (\(sent)) was answered by a problem: \(Self.describe(problem)).",
                fix: Self.mostLikelyFirst(causes) + "."
            )
        }
        let said = DoctorText.quoted(error) + (problem.errorDescription.map { ": \(DoctorText.quoted($0))" } ?? "")
        let refused = "the authorize request (\(sent)) was refused (\(said))"
        if error == "invalid_scope" {
            return .failed(
                "authorize",
                "\(refused): a scope of \(ConfigurationKey.upstreamScopes.path) is not allowed.",
                fix:
                    "the client's scopes must include each of \(scopes)\(notAdvertised), each defined in the profile first: \(CuritySetting.scope(id)) (\(CuritySetting.adminUI(id, CuritySetting.scopePlaces))); or remove it from \(ConfigurationKey.upstreamScopes.path)."
            )
        }
        if (problem.errorDescription ?? "").lowercased().contains("redirect") || error == "invalid_redirect_uri" {
            return .failed(
                "authorize",
                "\(refused): the redirect URI \(configuration.redirectURI) is not registered.",
                fix:
                    "register it: \(CuritySetting.redirectURIs(id)) (\(CuritySetting.adminUI(id, CuritySetting.redirectURIPlaces))); or set \(ConfigurationKey.upstreamRedirectURI.path) to one that is."
            )
        }
        if error == "unauthorized_client" {
            return .failed("authorize", "\(refused).", fix: Self.mostLikelyFirst([codeFlow, redirect]) + ".")
        }
        return .failed("authorize", "\(refused).", fix: Self.mostLikelyFirst(causes) + ".")
    }
}
