import Foundation
import HAAPIGateway

@testable import GatewayTestSupport

/// A device speaking RFC 8628 to the gateway under test, over HTTP (its own cookie-less client), and the person's part.
struct TestDevice {
    /// A confidential client that may receive the DPoP key of bound tokens (the strict demo binds them).
    static let confidential = DeviceClient(id: "build-host", name: "Build host 3", secret: "build-host-secret-0123456789", receivesDPoPKey: true)
    static let publicClient = DeviceClient(id: "public-cli", name: "Command line", secret: nil)
    static let deviceCodeGrant = "urn:ietf:params:oauth:grant-type:device_code"

    let browser: TestBrowser
    var client = TestDevice.confidential

    /// Device settings for tests: both clients, a 1 s interval.
    static func configure(_ configuration: inout GatewayConfiguration) {
        configuration.devices.enabled = true
        configuration.devices.clients = [confidential, publicClient]
        configuration.devices.pollIntervalSeconds = 1
    }

    /// `Authorization: Basic` for a client with a secret (RFC 6749 §2.3.1), nothing for a public one.
    func authentication(secret: String? = nil) -> [(String, String)] {
        guard let secret = secret ?? client.secret else { return [] }
        let credentials = Data("\(client.id):\(secret)".utf8).base64EncodedString()
        return [("Authorization", "Basic \(credentials)")]
    }

    func form(_ pairs: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        var pairs = pairs
        if client.secret == nil { pairs.append(("client_id", client.id)) }
        return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }

    /// POST to an endpoint; the answer's status and JSON object.
    func post(
        _ path: String,
        _ pairs: [(String, String)],
        headers: [(String, String)]? = nil
    ) async throws -> (status: Int, json: [String: Any], page: TestBrowser.Page) {
        let page = try await browser.post(path, body: form(pairs), headers: headers ?? authentication())
        let json = (try? JSONSerialization.jsonObject(with: Data(page.html.utf8))) as? [String: Any] ?? [:]
        return (page.status, json, page)
    }

    /// RFC 8628 §3.1: a device authorization.
    func authorize(scope: String? = nil) async throws -> [String: Any] {
        let answer = try await post("/oauth/device_authorization", scope.map { [("scope", $0)] } ?? [])
        guard answer.status == 200 else { throw TestBrowser.BrowserError("device authorization: \(answer.status) \(answer.page.html)") }
        return answer.json
    }

    /// RFC 8628 §3.4: one poll.
    func poll(_ deviceCode: String) async throws -> (status: Int, json: [String: Any], page: TestBrowser.Page) {
        try await post("/oauth/token", [("grant_type", Self.deviceCodeGrant), ("device_code", deviceCode)])
    }

    /// The answer to a poll after another poll got the tokens: `authorization_pending` while that hand-over is under way
    /// (its answer is written before its end is noted, and the end may come after this poll), then the final one. Polls
    /// for at most 5 s, past the hand-over's 2 s lease, so a hand-over never ended shows as the tokens again.
    func pollAfterHandOver(_ deviceCode: String) async throws -> (status: Int, json: [String: Any], page: TestBrowser.Page) {
        for _ in 0..<50 {
            let answer = try await poll(deviceCode)
            guard answer.json["error"] as? String == "authorization_pending" else { return answer }
            try await Task.sleep(for: .milliseconds(100))
        }
        return try await poll(deviceCode)
    }
}
