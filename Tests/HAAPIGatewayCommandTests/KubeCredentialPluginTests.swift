import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// `haapi-gateway kube-credential` as the official Kubernetes Python client's kubeconfig loader runs it (its exec
/// plugin support, as kubectl's: `KUBERNETES_EXEC_INFO`, the answer's apiVersion checked), with the `users:` entry of
/// `docs/headless-and-devices.md` as written, after a real `login`.
@Suite("Kubernetes exec credential plugin, driven by the Kubernetes client", .startsPrograms())
struct KubeCredentialPluginTests {
    /// A kubeconfig with a cluster, a context and the documented user, its exec entry changed by `change`.
    static func kubeconfig(in directory: URL, _ change: (String) -> String = { $0 }) throws -> URL {
        let users = try DocumentedSetup.block(under: "### Kubernetes (kubectl)", language: "yaml")
        let file = directory.appendingPathComponent("kubeconfig-\(UUID().uuidString).yaml")
        let text = """
            apiVersion: v1
            kind: Config
            clusters:
            - name: example
              cluster:
                server: https://kubernetes.example.com
            contexts:
            - name: example
              context:
                cluster: example
                user: haapi-gateway
            current-context: example

            """ + change(users) + "\n"
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    /// What the Kubernetes client loaded from `kubeconfig`: the Authorization value it would send and the expiry it read.
    static func load(_ kubeconfig: URL, host: ToolHost) async throws -> (authorization: String?, expiry: Date?, errors: String) {
        let result = try await host.run(
            "python3",
            [Repository.root.appendingPathComponent("Tests/Interop/kube_exec_credential.py").path, kubeconfig.path]
        )
        try #require(result.status == 0, "\(result.standardError)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        let expiry = (object["expiry"] as? String).flatMap { value -> Date? in
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime]
            return formatter.date(from: value.replacingOccurrences(of: "+00:00", with: "Z"))
        }
        return (object["authorization"] as? String, expiry, result.standardError)
    }

    /// The `exp` of a JWT, read here rather than by the code under test.
    static func expiry(of jwt: String) -> Date? {
        let parts = jwt.split(separator: ".")
        guard parts.count == 3 else { return nil }
        var payload = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while payload.count % 4 != 0 { payload += "=" }
        guard let data = Data(base64Encoded: payload), let claims = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
            let exp = claims["exp"] as? Int
        else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(exp))
    }

    @Test(
        "the documented kubeconfig user gets the sign-in's ID token with its exp as the expiry, in v1 and, when the kubeconfig asks, v1beta1; --access-token gives an access token userinfo accepts",
        .enabled(if: TestTools.kubernetesClientAvailable, "needs the Python Kubernetes client (PyPI kubernetes; .ci/run installs it)")
    )
    func kubernetesClientGetsTheIDToken() async throws {
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let host = try await ToolHost.signedIn(demo)
            let tokens = try host.tokens()
            let idToken = try #require(tokens.idToken)
            let exp = try #require(Self.expiry(of: idToken))

            let documented = try await Self.load(try Self.kubeconfig(in: host.home), host: host)
            #expect(documented.authorization == "Bearer " + idToken, "the ID token of the token file: \(documented.errors)")
            #expect(documented.expiry == exp, "expirationTimestamp is the ID token's exp")

            let beta = try Self.kubeconfig(in: host.home) {
                $0.replacingOccurrences(of: "client.authentication.k8s.io/v1\n", with: "client.authentication.k8s.io/v1beta1\n")
            }
            #expect(try String(contentsOf: beta, encoding: .utf8).contains("v1beta1"))
            let betaLoaded = try await Self.load(beta, host: host)
            #expect(betaLoaded.authorization == "Bearer " + idToken, "the answer names the version asked for: \(betaLoaded.errors)")

            let access = try Self.kubeconfig(in: host.home) {
                $0.replacingOccurrences(of: "args: [kube-credential]", with: "args: [kube-credential, --access-token]")
            }
            let loaded = try await Self.load(access, host: host)
            #expect(loaded.authorization == "Bearer " + tokens.accessToken, "\(loaded.errors)")
            #expect(try await ToolHost.userinfoStatus(demo, bearer: tokens.accessToken) == 200)
            let lifetime = try #require(loaded.expiry).timeIntervalSinceNow
            #expect((200...301).contains(lifetime), "the access token's expiry: \(lifetime)")
        }
    }

    @Test(
        "an ID token expiring within a minute while the access token does not is refreshed first: the client gets the new one",
        .enabled(if: TestTools.kubernetesClientAvailable, "needs the Python Kubernetes client (PyPI kubernetes; .ci/run installs it)")
    )
    func shortLivedIDTokenIsRefreshed() async throws {
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let host = try await ToolHost.signedIn(demo)
            // The file now holds an ID token that expires in 20 s (its payload is read unverified, to know when), beside an
            // access token valid for about 300 s: an upstream may give ID tokens a shorter life.
            var document = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: host.tokenFile)) as? [String: Any])
            var token = try #require(document["token"] as? [String: Any])
            let exp = Int(Date().timeIntervalSince1970) + 20
            let payload = Data(#"{"sub":"demo","exp":\#(exp)}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "")
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let shortLived = "eyJhbGciOiJub25lIn0.\(payload).c2ln"
            token["idToken"] = shortLived
            document["token"] = token
            try JSONSerialization.data(withJSONObject: document).write(to: host.tokenFile)
            let before = try host.tokens()

            let loaded = try await Self.load(try Self.kubeconfig(in: host.home), host: host)
            let after = try host.tokens()
            #expect(after.accessToken != before.accessToken, "refreshed: \(loaded.errors)")
            let fresh = try #require(after.idToken)
            #expect(fresh != shortLived)
            #expect(loaded.authorization == "Bearer " + fresh)
            #expect(loaded.expiry == Self.expiry(of: fresh))
        }
    }

    @Test("an apiVersion the plugin does not answer, or KUBERNETES_EXEC_INFO that is not an ExecCredential, is one line and exit 78")
    func refusesOtherVersions() async throws {
        let host = try ToolHost.empty()
        for (info, expected) in [
            (#"{"apiVersion":"client.authentication.k8s.io/v1alpha1","kind":"ExecCredential"}"#, "asks for client.authentication.k8s.io/v1alpha1"),
            ("not json", "is not an ExecCredential"),
        ] {
            let result = try await host.shell("KUBERNETES_EXEC_INFO='\(info)' haapi-gateway kube-credential")
            #expect(result.status == 78)
            #expect(result.standardOutput.isEmpty)
            #expect(result.standardError.hasPrefix("haapi-gateway: KUBERNETES_EXEC_INFO") && result.standardError.contains(expected))
            #expect(result.standardError.split(separator: "\n").count == 1)
        }
    }
}
