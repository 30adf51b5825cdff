import Foundation
import HAAPI
import Logging

/// The device side of a central gateway (RFC 8628): a device client that finds the gateway's endpoints in its
/// metadata (RFC 8414), asks for a device authorization, polls for the tokens, and refreshes and revokes them through
/// the gateway's token and revocation endpoints (RFC 6749 §6, RFC 7009), authenticated as the device client.
///
/// The token requests go through the HAAPI library's ``TokenManager`` of a ``HAAPIClient`` made for the gateway's
/// endpoints: one client authentication, one token-answer reader and the same timeouts and body limits as towards a
/// HAAPI upstream. That client never starts a HAAPI flow.
///
/// ```swift
/// let device = try await DeviceAuthorizationClient.connect(to: gateway, credentials: credentials)
/// let grant = try await device.requestAuthorization()
/// print(grant.userCode, grant.verificationURIComplete ?? grant.verificationURI)
/// let outcome = await device.poll(grant, timeout: .seconds(600))
/// try? await device.shutdown()
/// ```
public struct DeviceAuthorizationClient: Sendable {
    /// The gateway's metadata.
    public let metadata: AuthorizationServerMetadata
    /// Who the device is at the gateway.
    public let credentials: DeviceClientCredentials
    /// Refreshes and revokes through the gateway's token and revocation endpoints (for ``TokenKeeper`` and ``TokenRevoker``).
    public var tokenManager: TokenManager { client.tokenManager }

    let client: HAAPIClient
    let logger: Logger

    /// The redirect URI a ``HAAPIClientConfiguration`` must name. A device client has none and never sends one: it
    /// starts no HAAPI flow and exchanges no authorization code.
    static let unusedRedirectURI = TokenManager.deviceCodeGrantType

    /// The longest wait between two token requests after network errors (RFC 8628 §3.5: exponential backoff).
    public static let maximumBackoff = Duration.seconds(60)

    /// Reads the gateway's metadata and sets up the device client for its endpoints.
    /// - Parameters:
    ///   - issuer: The gateway's URL (``AuthorizationServerMetadata/issuer(_:)``).
    ///   - credentials: The device client.
    ///   - transport: Sends the requests; by default an ``AsyncHTTPClientTransport`` owned by the client.
    ///   - logger: Receives warnings when polling is retried, and the HAAPI library's debug output; never secrets.
    /// - Throws: ``DeviceClientError``: the gateway cannot be reached, does not offer device sign-in, or accepts no
    ///   client authentication these credentials can use.
    public static func connect(
        to issuer: URL,
        credentials: DeviceClientCredentials,
        transport: (any HAAPITransport)? = nil,
        logger: Logger = Logger(label: "haapi-gateway.device")
    ) async throws(DeviceClientError) -> DeviceAuthorizationClient {
        var configuration = HAAPIClientConfiguration(
            baseURL: issuer,
            clientID: credentials.clientID,
            clientAuthentication: credentials.secret.map { .secretBasic($0) } ?? .none,
            redirectURI: unusedRedirectURI,
            scopes: []
        )
        let resolvedTransport: any HAAPITransport
        if let transport {
            resolvedTransport = transport
        } else {
            do {
                resolvedTransport = try AsyncHTTPClientTransport(configuration: configuration, logger: logger)
            } catch {
                throw .configuration("the HTTP client could not be set up: \(error.message)")
            }
        }
        do throws(DeviceClientError) {
            let metadata = try await AuthorizationServerMetadata.discover(
                issuer: issuer,
                transport: resolvedTransport,
                timeout: configuration.requestTimeout,
                maxBodyBytes: configuration.maxResponseBodyBytes
            )
            configuration.clientAuthentication = try credentials.authentication(supportedMethods: metadata.tokenEndpointAuthMethodsSupported)
            configuration.endpoints = HAAPIEndpoints(
                authorization: metadata.deviceAuthorizationEndpoint,
                token: metadata.tokenEndpoint,
                revocation: metadata.revocationEndpoint,
                issuer: metadata.issuer.absoluteString
            )
            let client: HAAPIClient
            do {
                client = try await HAAPIClient(configuration: configuration, transport: resolvedTransport, logger: logger)
            } catch {
                throw .configuration("the device client cannot be set up: \(([error.message] + error.problems).joined(separator: "; "))")
            }
            return DeviceAuthorizationClient(metadata: metadata, credentials: credentials, client: client, logger: logger)
        } catch {
            try? await resolvedTransport.shutdown()
            throw error
        }
    }

    /// Asks the gateway for a device authorization (RFC 8628 §3.1–3.2).
    /// - Parameter scopes: The scopes to ask for; none lets the gateway choose.
    /// - Returns: The codes to poll with and to show.
    /// - Throws: ``DeviceClientError``: the gateway refused (`invalid_client`, say), could not be asked, or answered
    ///   something that is not a device authorization.
    public func requestAuthorization(scopes: [String] = []) async throws(DeviceClientError) -> DeviceAuthorizationGrant {
        let answer: OAuthResponseOutcome
        do {
            answer = try await tokenManager.requestDeviceAuthorization(at: metadata.deviceAuthorizationEndpoint, scopes: scopes)
        } catch  where error.code == .malformedResponse {
            throw .malformedAnswer("the gateway's device authorization answer cannot be read: \(error.message)")
        } catch {
            throw .unreachable("the gateway's device authorization endpoint could not be asked: \(error.message)")
        }
        switch answer {
        case .json(let json): return try DeviceAuthorizationGrant.decode(json)
        case .oauthError(let error): throw .refused(error, by: "device authorization endpoint")
        }
    }

    /// Releases the HTTP client (a transport passed in is shut down too).
    public func shutdown() async throws {
        try await client.shutdown()
    }
}
