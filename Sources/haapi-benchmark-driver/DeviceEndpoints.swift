import AsyncHTTPClient
import Foundation
import NIOCore

/// A device of the device authorization grant (RFC 8628) at the gateway, as a public client: asks for a device code
/// (`POST /oauth/device_authorization`) and polls the token endpoint with it (`POST /oauth/token`).
struct DeviceEndpoints: Sendable {
    let client: HTTPClient
    let gateway: String
    let clientID: String

    /// A new device authorization's device code.
    func start() async throws -> String {
        let (status, body) = try await post("/oauth/device_authorization", ["client_id": clientID])
        guard status == 200, let code = body["device_code"] as? String else {
            throw DriverError("the device authorization endpoint answered \(status): \(body["error"] ?? "no device_code")")
        }
        return code
    }

    /// One poll with `deviceCode`: the OAuth error code the gateway answered (`authorization_pending`, `slow_down`, …),
    /// or `tokens`.
    func poll(_ deviceCode: String) async throws -> String {
        let (status, body) = try await post(
            "/oauth/token",
            ["grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": deviceCode, "client_id": clientID]
        )
        if status == 200 { return "tokens" }
        guard status == 400, let error = body["error"] as? String else { throw DriverError("the token endpoint answered \(status)") }
        return error
    }

    /// Posts `form` (`application/x-www-form-urlencoded`); the status and the JSON object answered.
    private func post(_ path: String, _ form: [String: String]) async throws -> (UInt, [String: Any]) {
        var request = HTTPClientRequest(url: gateway + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let encoded = form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? $0.value)" }
        request.body = .bytes(ByteBuffer(string: encoded.joined(separator: "&")))
        let response = try await client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 16)
        let object = (try? JSONSerialization.jsonObject(with: Data(buffer: body))) as? [String: Any]
        return (response.status.code, object ?? [:])
    }
}
