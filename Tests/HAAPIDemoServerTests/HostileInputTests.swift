import Foundation
import Testing

/// Garbage and hostile requests: always a 4xx with a documented error, never a 5xx or a hang.
@Suite struct HostileInputTests {
    @Test func garbageNeverCausesServerErrors() async throws {
        let harness = try await DemoServerHarness.start()
        let flow = HAAPIFlowDriver(harness: harness)
        _ = try await flow.start()
        let http = harness.http
        let base = harness.base
        let haapi = [("Accept", "application/vnd.auth+json")]
        let hugeProof = String(repeating: "a", count: 9000) + "." + String(repeating: "b", count: 10) + ".c"
        let nested = TestJWS.base64url(Data((String(repeating: "[", count: 3000) + String(repeating: "]", count: 3000)).utf8))
        let requests: [(HTTPMethodName, String, [(String, String)], String?)] = [
            (.get, base + "/oauth/v2/oauth-authorize", haapi + [("Authorization", "DPoP")], nil),
            (.get, base + "/oauth/v2/oauth-authorize", haapi + [("Authorization", "DPoP \(flow.token)"), ("DPoP", hugeProof)], nil),
            (
                .get, base + "/oauth/v2/oauth-authorize", haapi + [("Authorization", "DPoP \(flow.token)"), ("DPoP", nested + "." + nested + ".")],
                nil
            ),
            (.get, base + "/oauth/v2/oauth-authorize", haapi + [("Authorization", "DPoP \(flow.token)"), ("DPoP", "...")], nil),
            (.get, base + "/authn/authenticate", haapi + [("Authorization", "DPoP \(flow.token)"), ("Session-Id", "a"), ("Session-Id", "b")], nil),
            (
                .post, base + "/authn/authenticate/html-form", haapi + [("Authorization", "DPoP \(flow.token)"), ("Content-Type", "text/plain")],
                "\u{0}\u{1}"
            ),
            (.post, base + "/oauth/v2/oauth-token", [("Content-Type", "application/x-www-form-urlencoded")], "a=%ZZ&&&=&grant_type"),
            (
                .post, base + "/oauth/v2/oauth-token", [("Content-Type", "application/x-www-form-urlencoded"), ("Authorization", "Basic ####")],
                "grant_type=client_credentials"
            ),
            (
                .post, base + "/oauth/v2/oauth-token",
                [("Content-Type", "application/x-www-form-urlencoded")],
                "grant_type=client_credentials&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=\(nested).\(nested).x"
            ),
            (.post, base + "/oauth/v2/oauth-revoke", [("Content-Type", "application/json")], "{}"),
            (.post, base + "/oauth/v2/oauth-introspect", [("Content-Type", "application/x-www-form-urlencoded")], "token=x"),
            (.get, base + "/demo/approve/unknown", [], nil),
            (.post, base + "/demo/approve/unknown", [("Content-Type", "application/x-www-form-urlencoded")], "decision=approve"),
            (.get, base + "/authn/authenticate/external-browser/launch?_launch_nonce=unknown&redirect_uri=javascript:alert(1)", [], nil),
            (
                .post, base + "/authn/authenticate/external-browser/launch", [("Content-Type", "application/x-www-form-urlencoded")],
                "_launch_nonce=x&userName=demo&password=demo&redirect_uri=javascript:alert(1)"
            ),
        ]
        for (method, url, headers, body) in requests {
            let response = try await http.send(method == .get ? .GET : .POST, url, headers: headers, body: body)
            #expect((400..<500).contains(response.status), "\(method) \(url.prefix(120)) -> \(response.status)")
        }
        try await harness.finish()
    }

    enum HTTPMethodName { case get, post }
}
