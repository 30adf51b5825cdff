import Foundation
import Hummingbird

/// Authenticates a device client at the device authorization, token and revocation endpoints (RFC 6749 §2.3.1, RFC 8628
/// §3.1): a confidential client by HTTP Basic (`client_secret_basic`, id and secret form-urlencoded before base64) or by
/// `client_id` and `client_secret` in the body (`client_secret_post`); a public client by its `client_id` alone.
struct DeviceClientAuthenticator: Sendable {
    let clients: [DeviceClient]

    /// The registered client the request authenticates as.
    /// - Throws: ``OAuthEndpointError`` `invalid_client` for an unknown client, a wrong or missing secret, a secret sent by
    ///   a public client or no client at all: one and the same answer for each (401, `WWW-Authenticate: Basic`, the fixed
    ///   description "client authentication failed"), so that nobody learns which client ids exist or have secrets;
    ///   `invalid_request` for two methods at once.
    func authenticate(_ request: Request, form: FormBody) throws(OAuthEndpointError) -> DeviceClient {
        let basic = request.headers[.authorization].flatMap(Self.basicCredentials)
        if request.headers[.authorization] != nil, basic == nil {
            throw Self.refused
        }
        if basic != nil, form.values["client_secret"] != nil {
            throw OAuthEndpointError("invalid_request", "use one client authentication method, not two")
        }
        if let basic, let formID = form.values["client_id"], formID != basic.id {
            throw OAuthEndpointError("invalid_request", "client_id differs from the client authenticated")
        }
        guard let id = basic?.id ?? form.values["client_id"], !id.isEmpty else {
            throw Self.refused
        }
        let presented = basic?.secret ?? form.values["client_secret"]
        guard let client = clients.first(where: { $0.id == id }) else {
            throw Self.refused
        }
        switch (client.secret, presented) {
        case (nil, nil):
            return client
        case (let secret?, let presented?) where SecureToken.constantTimeEquals(presented, secret):
            return client
        case (nil, _?):
            throw Self.refused
        default:
            throw Self.refused
        }
    }

    /// The one answer to every failed client authentication (RFC 6749 §5.2 `invalid_client`, 401 with the scheme the
    /// endpoint accepts).
    private static var refused: OAuthEndpointError {
        var error = OAuthEndpointError("invalid_client", "client authentication failed", status: .unauthorized)
        error.headers[.wwwAuthenticate] = #"Basic realm="haapi-gateway""#
        return error
    }

    /// `Basic base64(urlencode(id):urlencode(secret))` (RFC 6749 §2.3.1).
    static func basicCredentials(_ header: String) -> (id: String, secret: String)? {
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
            let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
            let decoded = String(data: data, encoding: .utf8), let colon = decoded.firstIndex(of: ":")
        else { return nil }
        let id = String(decoded[..<colon]), secret = String(decoded[decoded.index(after: colon)...])
        guard let id = id.replacingOccurrences(of: "+", with: " ").removingPercentEncoding,
            let secret = secret.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
        else { return nil }
        return (id, secret)
    }
}
