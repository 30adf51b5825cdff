import Foundation
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// A central gateway's authorization server on a loopback port, scripted (RFC 8414 metadata, RFC 8628 device
/// authorization, the token endpoint, RFC 7009 revocation): for running `login`, `keep` and `logout --via` as a user
/// would before the real gateway serves these endpoints. It records every request.
final class ScriptedDeviceGateway: Sendable {
    /// One request as it arrived.
    struct Request: Sendable {
        let path: String
        let authorization: String?
        let form: [String: String]

        /// The HTTP Basic credentials, decoded (`id:secret`).
        var basicCredentials: String? {
            guard let authorization, authorization.hasPrefix("Basic "), let data = Data(base64Encoded: String(authorization.dropFirst(6))) else {
                return nil
            }
            return String(decoding: data, as: UTF8.self)
        }
    }

    /// The answers to the device code grant, in order (the last one repeats): an OAuth error code, or nil for the tokens.
    private let deviceCodeAnswers: Mutex<[String?]>
    private let recorded = Mutex<[Request]>([])
    private let port = Mutex(0)

    /// The token endpoint's answer to the device code grant once the person approved: the tokens, as JSON.
    private let issuedTokens: String

    /// - Parameters:
    ///   - deviceCodeAnswers: The answers to the device code grant, in order (the last one repeats).
    ///   - issuedTokens: The JSON of the tokens issued once approved (an upstream's own choice of what is in them).
    init(deviceCodeAnswers: [String?], issuedTokens: String = ScriptedDeviceGateway.tokens) {
        self.deviceCodeAnswers = Mutex(deviceCodeAnswers)
        self.issuedTokens = issuedTokens
    }

    /// The tokens issued by default: a Bearer access token for 300 s, a refresh token, an ID token for alice.
    static let tokens =
        #"{"access_token":"device-access","token_type":"Bearer","expires_in":300,"refresh_token":"device-refresh","id_token":"\#(idToken)","scope":"openid profile"}"#

    /// Every request so far.
    var requests: [Request] { recorded.withLock { $0 } }
    /// The requests to `path`.
    func requests(to path: String) -> [Request] { requests.filter { $0.path == path } }

    /// Serves on a free loopback port while `body` runs, with the gateway's URL.
    func serving<T: Sendable>(_ body: (URL) async throws -> T) async throws -> T {
        let router = Router()
        router.get("/.well-known/oauth-authorization-server") { _, _ in
            self.json(
                200,
                """
                {"issuer":"\(self.base)","device_authorization_endpoint":"\(self.base)/oauth/device_authorization",
                "token_endpoint":"\(self.base)/oauth/token","revocation_endpoint":"\(self.base)/oauth/revoke",
                "grant_types_supported":["urn:ietf:params:oauth:grant-type:device_code","refresh_token"],
                "token_endpoint_auth_methods_supported":["client_secret_basic","client_secret_post","none"]}
                """
            )
        }
        router.post("/oauth/device_authorization") { request, _ in
            try await self.record(request)
            return self.json(
                200,
                """
                {"device_code":"scripted-device-code","user_code":"WDJB-MJHT","verification_uri":"\(self.base)/device",
                "verification_uri_complete":"\(self.base)/device?user_code=WDJB-MJHT","expires_in":60,"interval":1}
                """
            )
        }
        router.post("/oauth/token") { request, _ in
            let form = try await self.record(request)
            if form["grant_type"] == "refresh_token" {
                return self.json(
                    200,
                    #"{"access_token":"refreshed-access","token_type":"Bearer","expires_in":300,"refresh_token":"refreshed-refresh"}"#
                )
            }
            let answer = self.deviceCodeAnswers.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
            if let error = answer { return self.json(400, #"{"error":"\#(error)"}"#) }
            return self.json(200, self.issuedTokens)
        }
        router.post("/oauth/revoke") { request, _ in
            try await self.record(request)
            return Response(status: .ok)
        }
        return try await LoopbackServer.serving(router, label: "scripted-device-gateway") { bound in
            port.withLock { $0 = bound }
            return try await body(URL(string: base)!)
        }
    }

    /// An unsigned ID token whose subject is `alice`.
    static let idToken = "eyJhbGciOiJub25lIn0." + Data(#"{"sub":"alice"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + ".x"

    private var base: String { "http://127.0.0.1:\(port.withLock { $0 })" }

    @discardableResult
    private func record(_ request: Hummingbird.Request) async throws -> [String: String] {
        let body = try await request.body.collect(upTo: 65_536)
        var components = URLComponents()
        components.percentEncodedQuery = String(buffer: body).replacingOccurrences(of: "+", with: "%20")
        let form = Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        recorded.withLock { $0.append(Request(path: request.uri.path, authorization: request.headers[.authorization], form: form)) }
        return form
    }

    private func json(_ status: Int, _ body: String) -> Response {
        Response(status: .init(code: status), headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(string: body)))
    }
}
