import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// What the credential helpers refuse, each in its tool's way: DPoP-bound access tokens, which git, kubectl and Docker
/// cannot use (each request needs a proof made with the key in the token file), named with `proxy` in one line and no
/// token anywhere; and no sign-in, with one line saying to run `login`.
@Suite("Credential helpers' refusals", .startsPrograms())
struct CredentialHelperRefusalTests {
    /// The three helpers' `get`, as their tools run them (Docker's through the documented link name).
    static let helpers: [(name: String, line: String)] = [
        ("git", #"printf 'protocol=https\nhost=git.example.com\n\n' | haapi-gateway git-credential get"#),
        ("kubectl", "haapi-gateway kube-credential --access-token"),
        ("docker", "printf 'registry.example.com' | docker-credential-haapi-gateway get"),
    ]

    /// A host whose Docker configuration hands registry.example.com to the helper, with the helper linked on `PATH`.
    static func prepare(_ host: ToolHost) async throws {
        let docker = host.home.appendingPathComponent(".docker")
        try FileManager.default.createDirectory(at: docker, withIntermediateDirectories: true)
        try #"{"credHelpers":{"registry.example.com":"haapi-gateway"}}"#.write(
            to: docker.appendingPathComponent("config.json"),
            atomically: true,
            encoding: .utf8
        )
        let linked = try await host.shell(#"ln -s "$(command -v haapi-gateway)" "$HOME/bin/docker-credential-haapi-gateway""#)
        try #require(linked.status == 0, "\(linked.standardError)")
    }

    @Test(
        "DPoP-bound tokens: git-credential, kube-credential --access-token and the Docker helper exit 1 with one line naming proxy and give no token; the ID token still goes to kubectl"
    )
    func dpopBoundTokensAreRefused() async throws {
        try await SignedInHost.withDemo({ $0.issueTokenBoundAuthorizationCodes = true }) { demo in
            let host = try await ToolHost.signedIn(demo)
            try await Self.prepare(host)
            let tokens = try host.tokens()
            #expect(tokens.tokenType == "DPoP")
            for (tool, line) in Self.helpers {
                let result = try await host.shell(line)
                #expect(result.status == 1, "\(tool): \(result)")
                // Docker's protocol reads an error from standard output; git and kubectl show standard error.
                let message = tool == "docker" ? result.standardOutput : result.standardError
                #expect(tool == "docker" ? result.standardError.isEmpty : result.standardOutput.isEmpty, "\(tool): \(result)")
                #expect(message.split(separator: "\n").count == 1, "\(tool): one line: \(message)")
                #expect(
                    message.contains("is DPoP-bound: \(tool) cannot send the DPoP proof") && message.contains("haapi-gateway proxy"),
                    "\(tool): \(message)"
                )
                #expect(!(result.standardOutput + result.standardError).contains(tokens.accessToken), "\(tool): no token")
            }
            let idToken = try await host.run("haapi-gateway", ["kube-credential"])
            #expect(idToken.status == 0, "\(idToken.standardError)")
            #expect(idToken.standardOutput.contains(#""token":"\#(try #require(tokens.idToken))""#))
        }
    }

    @Test("no sign-in: each helper exits 1 with one line saying to run haapi-gateway login")
    func noSignIn() async throws {
        let host = try ToolHost.empty()
        try await Self.prepare(host)
        for (tool, line) in Self.helpers + [("kubectl", "haapi-gateway kube-credential")] {
            let result = try await host.shell(line)
            #expect(result.status == 1, "\(tool): \(result)")
            let message = tool == "docker" ? result.standardOutput : result.standardError
            #expect(message == "haapi-gateway: no sign-in in \(host.tokenFile.path): run haapi-gateway login\n", "\(tool): \(result)")
        }
    }
}
