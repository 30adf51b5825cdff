import Foundation
import Testing

@testable import GatewayTestSupport

/// One login flow spoken from scratch: a DPoP key, a HAAPI token, the session id (read from `Set-Session-Id`, sent as
/// `Session-Id`), the flow's cookies and the nonce.
final class HAAPIFlowDriver: @unchecked Sendable {
    let harness: DemoServerHarness
    var key = TestDPoPKey()
    var token = ""
    var sessionID: String?
    var nonce: String?
    /// Cookies set by the flow's responses (the strict mode's stickiness cookie); sent back when `sendsCookies`.
    var cookies = TestCookieJar()
    var sendsCookies = true
    /// Whether the authorize request carries `dpop_jkt` (the flow key's thumbprint); by default when the server requires
    /// it (`authorization-code-dpop-binding` required, as in strict mode).
    var sendsDPoPJKT: Bool?
    let codeVerifier = TestJWS.base64url(Data((0..<32).map { _ in UInt8.random(in: 0...255) }))
    let state = UUID().uuidString
    let oidcNonce = UUID().uuidString

    init(harness: DemoServerHarness) {
        self.harness = harness
    }

    /// Gets a HAAPI token and sends the authorize request; returns its response.
    func start(scope: String = "openid profile email", extraQuery: [(String, String)] = []) async throws -> TestResponse {
        let issued = try await harness.haapiToken(key: key)
        token = issued.token
        nonce = issued.nonce
        let query: [(String, String)] =
            [
                ("client_id", "demo-gateway"), ("response_type", "code"), ("redirect_uri", "haapi:start"), ("scope", scope),
                ("state", state), ("code_challenge", TestJWS.sha256(codeVerifier)), ("code_challenge_method", "S256"), ("nonce", oidcNonce),
            ] + extraQuery
            + (sendsDPoPJKT ?? (harness.configuration.authorizationCodeDPoPBinding == .required) ? [("dpop_jkt", key.thumbprint)] : [])
        return try await request("GET", harness.authorizeURL + "?" + TestHTTP.formEncode(query))
    }

    /// Resolves an href against the server.
    func absolute(_ href: String) -> String {
        href.hasPrefix("http") ? href : harness.base + href
    }

    /// A HAAPI request with token, fresh proof, Accept, Session-Id and the flow's cookies; retries once on use_dpop_nonce.
    /// Keeps the latest `Set-Session-Id`, `DPoP-Nonce` and cookies of every response.
    func request(
        _ method: String,
        _ url: String,
        fields: [(String, String)] = [],
        headers extra: [(String, String)] = [],
        accept: String = "application/vnd.auth+json",
        proofURL: String? = nil,
        jsonBody: String? = nil
    ) async throws -> TestResponse {
        let target = absolute(url)
        var response: TestResponse?
        for _ in 0..<2 {
            let htu = proofURL ?? String(target.split(separator: "?", maxSplits: 1)[0])
            var headers = [("Accept", accept), ("Authorization", "DPoP \(token)")]
            headers.append(("DPoP", key.proof(method: method, url: htu, accessToken: token, nonce: nonce)))
            if let sessionID { headers.append(("Session-Id", sessionID)) }
            if sendsCookies, let cookie = cookies.header(for: target) { headers.append(("Cookie", cookie)) }
            headers += extra
            var finalURL = target
            var body: String?
            if method == "GET" {
                if !fields.isEmpty { finalURL += (target.contains("?") ? "&" : "?") + TestHTTP.formEncode(fields) }
            } else if let jsonBody {
                headers.append(("Content-Type", "application/json"))
                body = jsonBody
            } else {
                headers.append(("Content-Type", "application/x-www-form-urlencoded"))
                body = TestHTTP.formEncode(fields)
            }
            let current = try await harness.http.send(method == "GET" ? .GET : .POST, finalURL, headers: headers, body: body)
            if let fresh = current.header("DPoP-Nonce") { nonce = fresh }
            if let session = current.header("Set-Session-Id") { sessionID = session }
            cookies.store(setCookie: current.headers.filter { $0.0.lowercased() == "set-cookie" }.map(\.1))
            response = current
            guard current.status == 401, current.header("WWW-Authenticate")?.contains("use_dpop_nonce") == true else { break }
        }
        return response!
    }

    /// Submits a form action: hidden values as sent, plus `values` for the visible fields.
    func submit(_ action: [String: Any], _ values: [String: String] = [:]) async throws -> TestResponse {
        let model = action["model"] as? [String: Any] ?? [:]
        let fields = (model["fields"] as? [[String: Any]] ?? []).compactMap { field -> (String, String)? in
            guard let name = field["name"] as? String else { return nil }
            if let value = values[name] { return (name, value) }
            if field["type"] as? String == "hidden" { return (name, field["value"] as? String ?? "") }
            if field["type"] as? String == "checkbox", field["checked"] as? Bool == true { return (name, "on") }
            return nil
        }
        let response = try await request((model["method"] as? String ?? "GET").uppercased(), model["href"] as? String ?? "", fields: fields)
        if Step(response).type == "continue-same-step" {
            // Curity answers continue-same-step only to a form with continueActions ([IOSCS][UIKIT], notes 3.2).
            #expect(model["continueActions"] is [[String: Any]], "continue-same-step answered a form without continueActions")
        }
        return response
    }

    /// Submits a JSON form action (`type: application/json`) with `members` as the body object.
    func submitJSON(_ action: [String: Any], _ members: [String: Any]) async throws -> TestResponse {
        let model = action["model"] as? [String: Any] ?? [:]
        #expect(model["type"] as? String == "application/json")
        let body = String(decoding: try JSONSerialization.data(withJSONObject: members, options: [.sortedKeys]), as: UTF8.self)
        return try await request((model["method"] as? String ?? "POST").uppercased(), model["href"] as? String ?? "", jsonBody: body)
    }

    /// Follows a redirection-step's action.
    func follow(_ step: TestResponse) async throws -> TestResponse {
        #expect(step.json["type"] as? String == "redirection-step")
        return try await submit(Step(step).actions[0])
    }

    /// Exchanges the code of an oauth-authorization-response, with a proof from `dpopKey` when given (retrying once on
    /// use_dpop_nonce; the flow's nonce for the flow's key).
    func exchange(
        _ response: TestResponse,
        dpopKey: TestDPoPKey? = nil,
        verifier: String? = nil,
        redirectURI: String = "haapi:start"
    )
        async throws -> TestResponse
    {
        let code = (response.json["properties"] as? [String: Any])?["code"] as? String ?? ""
        let fields = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("code_verifier", verifier ?? codeVerifier),
        ]
        var proofNonce = dpopKey?.thumbprint == key.thumbprint ? nonce : nil
        var answer: TestResponse?
        for _ in 0..<2 {
            let current = try await harness.tokenRequest(
                fields,
                dpop: dpopKey.map { $0.proof(method: "POST", url: harness.tokenURL, nonce: proofNonce) },
                authorization: harness.basicAuthorization
            )
            answer = current
            guard dpopKey != nil, current.status == 400, current.json["error"] as? String == "use_dpop_nonce" else { break }
            proofNonce = current.header("DPoP-Nonce")
        }
        if dpopKey?.thumbprint == key.thumbprint, let fresh = answer?.header("DPoP-Nonce") { nonce = fresh }
        return answer!
    }
}
