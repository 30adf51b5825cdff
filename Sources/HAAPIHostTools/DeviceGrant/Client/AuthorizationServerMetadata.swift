import Foundation
import HAAPI
import HAAPIGateway

/// What a device needs of a central gateway's authorization server metadata (RFC 8414): its issuer, the device
/// authorization, token and revocation endpoints (RFC 8628, RFC 6749, RFC 7009), the grant types and the client
/// authentication methods it accepts. The paths come from here, never from the device's own idea of the gateway.
public struct AuthorizationServerMetadata: Sendable, Hashable {
    /// The issuer identifier: the gateway's URL (`--via`).
    public let issuer: URL
    /// The device authorization endpoint (RFC 8628 §3.1).
    public let deviceAuthorizationEndpoint: URL
    /// The token endpoint (RFC 6749 §3.2).
    public let tokenEndpoint: URL
    /// The revocation endpoint (RFC 7009), if the gateway has one.
    public let revocationEndpoint: URL?
    /// `grant_types_supported`, when the metadata lists them.
    public let grantTypesSupported: [String]?
    /// `token_endpoint_auth_methods_supported`, when the metadata lists them.
    public let tokenEndpointAuthMethodsSupported: [String]?

    /// The well-known path of the metadata (RFC 8414 §3).
    public static let wellKnownPath = "/.well-known/oauth-authorization-server"

    /// Creates metadata.
    /// - Parameters:
    ///   - issuer: The issuer identifier.
    ///   - deviceAuthorizationEndpoint: The device authorization endpoint.
    ///   - tokenEndpoint: The token endpoint.
    ///   - revocationEndpoint: The revocation endpoint, if any.
    ///   - grantTypesSupported: The grant types, if listed.
    ///   - tokenEndpointAuthMethodsSupported: The client authentication methods, if listed.
    public init(
        issuer: URL,
        deviceAuthorizationEndpoint: URL,
        tokenEndpoint: URL,
        revocationEndpoint: URL? = nil,
        grantTypesSupported: [String]? = nil,
        tokenEndpointAuthMethodsSupported: [String]? = nil
    ) {
        self.issuer = issuer
        self.deviceAuthorizationEndpoint = deviceAuthorizationEndpoint
        self.tokenEndpoint = tokenEndpoint
        self.revocationEndpoint = revocationEndpoint
        self.grantTypesSupported = grantTypesSupported
        self.tokenEndpointAuthMethodsSupported = tokenEndpointAuthMethodsSupported
    }

    /// The gateway's URL as an issuer identifier: an absolute `https` URL without query, fragment or user info (RFC 8414
    /// §2); plain `http` only for a loopback host, since the device client's secret and the tokens cross it.
    /// - Parameter text: The URL as given (`--via`).
    /// - Throws: ``DeviceClientError`` (configuration) saying what is wrong.
    public static func issuer(_ text: String) throws(DeviceClientError) -> URL {
        // As the messages show it: a password in its user info redacted.
        let shown = SecretRedaction.redactingURLPasswords(in: text)
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", let host = url.host,
            !host.isEmpty
        else { throw .configuration("the gateway URL \(shown) is not an absolute http(s) URL") }
        guard url.query == nil, url.fragment == nil, url.user == nil, url.password == nil else {
            throw .configuration("the gateway URL \(shown) must not have a query, a fragment or user info")
        }
        guard isSecure(url) else {
            throw .configuration(
                "the gateway URL \(shown) must use https (plain http only on a loopback address): the device client's secret and the tokens cross it"
            )
        }
        return url
    }

    /// Where the metadata of `issuer` is (RFC 8414 §3.1): the well-known path between the host and the issuer's path.
    /// - Parameter issuer: The issuer identifier.
    public static func metadataURL(for issuer: URL) -> URL {
        var components = URLComponents(url: issuer, resolvingAgainstBaseURL: false) ?? URLComponents()
        let path = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
        components.path = wellKnownPath + path
        return components.url ?? issuer
    }

    /// Fetches and checks the metadata of `issuer`.
    /// - Parameters:
    ///   - issuer: The issuer identifier (see ``issuer(_:)``).
    ///   - transport: Sends the request.
    ///   - timeout: The limit for the exchange.
    ///   - maxBodyBytes: The largest accepted document.
    /// - Throws: ``DeviceClientError``: unreachable, no metadata there (unsupported), or metadata that cannot be used.
    public static func discover(
        issuer: URL,
        transport: any HAAPITransport,
        timeout: Duration = .seconds(15),
        maxBodyBytes: Int = 1 << 20
    ) async throws(DeviceClientError) -> AuthorizationServerMetadata {
        let url = metadataURL(for: issuer)
        let response: HTTPResponseData
        do {
            response = try await transport.send(
                HTTPRequestData(method: "GET", url: url, headers: [("Accept", "application/json")]),
                timeout: timeout,
                maxBodyBytes: maxBodyBytes
            )
        } catch let error as HAAPIError {
            throw .unreachable("the gateway at \(issuer.absoluteString) could not be reached: \(error.message)")
        } catch {
            throw .unreachable("the gateway at \(issuer.absoluteString) could not be reached")
        }
        if response.status == 404 {
            throw .unsupported(
                "the gateway at \(issuer.absoluteString) publishes no authorization server metadata (HTTP 404 for \(url.path)); is device sign-in enabled there?"
            )
        }
        guard (200..<300).contains(response.status) else {
            throw .unreachable("the gateway at \(issuer.absoluteString) answered HTTP \(response.status) for \(url.path)")
        }
        return try decode(response.body, issuer: issuer)
    }

    /// Reads a metadata document fetched for `issuer`.
    /// - Parameters:
    ///   - body: The document.
    ///   - issuer: The issuer identifier the document was fetched for; the document must name the same (RFC 8414 §3.3).
    /// - Throws: ``DeviceClientError``: not a JSON object, another issuer, no device authorization endpoint or grant,
    ///   an endpoint that is not an absolute https URL (http only on loopback).
    public static func decode(_ body: Data, issuer: URL) throws(DeviceClientError) -> AuthorizationServerMetadata {
        guard let json = try? JSONDecoder().decode(JSONValue.self, from: body), case .object = json else {
            throw .malformedAnswer("the gateway's authorization server metadata is not a JSON object")
        }
        guard let named = json["issuer"]?.stringValue else { throw .malformedAnswer("the gateway's authorization server metadata names no issuer") }
        guard trimmedSlash(named) == trimmedSlash(issuer.absoluteString) else {
            throw .malformedAnswer(
                "the gateway's authorization server metadata is for the issuer \(named), not \(issuer.absoluteString) (RFC 8414 §3.3); use that URL with --via"
            )
        }
        func endpoint(_ name: String) throws(DeviceClientError) -> URL? {
            guard let value = json[name] else { return nil }
            guard let text = value.stringValue, let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "https" || scheme == "http",
                !(url.host ?? "").isEmpty, isSecure(url)
            else { throw .malformedAnswer("the gateway's \(name) is not an absolute https URL") }
            return url
        }
        func list(_ name: String) -> [String]? { json[name]?.arrayValue?.compactMap(\.stringValue) }
        guard let deviceAuthorization = try endpoint("device_authorization_endpoint") else {
            throw .unsupported(
                "the gateway at \(issuer.absoluteString) does not offer device sign-in: its authorization server metadata names no device_authorization_endpoint"
            )
        }
        guard let token = try endpoint("token_endpoint") else {
            throw .malformedAnswer("the gateway's authorization server metadata names no token_endpoint")
        }
        let grantTypes = list("grant_types_supported")
        if let grantTypes, !grantTypes.contains(TokenManager.deviceCodeGrantType) {
            throw .unsupported("the gateway at \(issuer.absoluteString) does not offer the device authorization grant (grant_types_supported)")
        }
        return AuthorizationServerMetadata(
            issuer: issuer,
            deviceAuthorizationEndpoint: deviceAuthorization,
            tokenEndpoint: token,
            revocationEndpoint: try endpoint("revocation_endpoint"),
            grantTypesSupported: grantTypes,
            tokenEndpointAuthMethodsSupported: list("token_endpoint_auth_methods_supported")
        )
    }

    /// Whether `url` keeps secrets off the network: https, or http to a loopback host.
    static func isSecure(_ url: URL) -> Bool {
        if url.scheme?.lowercased() == "https" { return true }
        let host = (url.host ?? "").lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        let octets = host.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
        return host == "localhost" || host == "::1" || octets.count == 4 && octets.allSatisfy { $0 != nil } && octets[0] == 127
    }

    private static func trimmedSlash(_ text: String) -> String { text.hasSuffix("/") ? String(text.dropLast()) : text }
}
