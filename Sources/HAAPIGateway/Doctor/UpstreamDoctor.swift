import Foundation
import HAAPI
import Logging

/// Checks a live upstream as the gateway would use it, and says in Curity's terms what to change when a sign-in cannot
/// start: discovery (where, the issuer, the endpoints), the client's authentication, the HAAPI token, DPoP nonces, the
/// authorize request (redirect URI, scopes), the first step, the ID-token algorithms and keys, the external-browser return
/// URL and token-bound codes.
///
/// It listens on nothing, asks for two HAAPI tokens (one to check the client, one for the flow), reads the JWKS and
/// starts one flow, which it abandons at its first step. Where an upstream's answer can mean several things, it names
/// them, most likely first, and quotes what the server said.
public struct UpstreamDoctor: Sendable {
    /// The gateway's HAAPI client configuration.
    public let configuration: HAAPIClientConfiguration
    /// Where an external browser comes back to (`<public origin>/external-browser/return`), nil without `server.publicURL`.
    public let externalBrowserReturnURL: String?
    let logger: Logger

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
            checks.append(await discoveryFailure(error))
            return report(checks)
        }
        defer { Task { try? await client.shutdown() } }
        checks.append(discovered(client.endpoints))
        checks += await token(client)
        guard !checks.contains(where: { $0.result == .failed }) else { return report(checks) }
        checks += await firstFlow(client)
        checks += idTokenAlgorithms(client.endpoints)
        if let keys = await idTokenKeys(client) { checks.append(keys) }
        checks.append(externalBrowser())
        if let binding = tokenBinding() { checks.append(binding) }
        return report(checks)
    }

    private func report(_ checks: [DoctorCheck]) -> DoctorReport {
        DoctorReport(upstream: configuration.baseURL.absoluteString, clientID: configuration.clientID, checks: checks)
    }

    /// Possible causes, most likely first, as one sentence: "most likely A; or B; or C".
    static func mostLikelyFirst(_ causes: [String]) -> String {
        guard let first = causes.first else { return "" }
        return causes.count == 1 ? first : "most likely " + first + causes.dropFirst().map { "; or " + $0 }.joined()
    }
}
