import Foundation
import HAAPI
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// ``TokenIssuer/upstream(flags:tokenPath:use:environment:)``: the upstream a refresh or revocation goes to, without
/// reaching it.
@Suite("The upstream the tokens go back to")
struct TokenIssuerUpstreamTests {
    /// A token file with `origin` in a private directory, and an environment whose configuration file is none.
    static func tokenFile(origin: TokenOrigin?) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("issuer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let path = directory.appendingPathComponent("tokens.json").path
        let tokens = OAuthTokens(accessToken: "a", expiresIn: 300, refreshToken: "r", tokenType: "Bearer", scope: nil, idToken: nil)
        try TokenFile.write(.success(tokens), to: path, origin: origin)
        return path
    }

    /// An environment with a home of its own, so that no user's configuration file is read.
    static var environment: [String: String] {
        ["HOME": "/nonexistent-\(UUID().uuidString)", "XDG_CONFIG_HOME": "/nonexistent-\(UUID().uuidString)"]
    }

    /// The problem of `body`, if any.
    static func problem(_ body: () throws(HostTokenProblem) -> HAAPIClientConfiguration) -> HostTokenProblem? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    @Test("the configured upstream, else the one login recorded with this configuration's client authentication")
    func upstream() throws {
        let recorded = try Self.tokenFile(
            origin: TokenOrigin(issuedBy: .upstream, issuer: "https://login.example/oauth/v2/oauth-anonymous", clientID: "gw")
        )
        var flags = ConfigurationFlags()
        flags.clientSecret = "s"
        let fromFile = try TokenIssuer.upstream(flags: flags, tokenPath: recorded, use: .refresh, environment: Self.environment)
        #expect(fromFile.baseURL.absoluteString == "https://login.example/oauth/v2/oauth-anonymous")
        #expect(fromFile.clientID == "gw")
        flags.upstream = "https://other.example/oauth/v2/oauth-anonymous"
        flags.clientID = "mine"
        let configured = try TokenIssuer.upstream(flags: flags, tokenPath: recorded, use: .refresh, environment: Self.environment)
        #expect(configured.baseURL.host == "other.example")
        #expect(configured.clientID == "mine")
    }

    @Test("no upstream anywhere: status 78, saying what to do for a refresh and for a revocation")
    func noUpstream() throws {
        let path = try Self.tokenFile(origin: nil)
        let refresh = Self.problem { () throws(HostTokenProblem) in
            try TokenIssuer.upstream(flags: ConfigurationFlags(), tokenPath: path, use: .refresh, environment: Self.environment)
        }
        #expect(refresh?.exitStatus == 78)
        #expect(refresh?.message.hasPrefix("no upstream is configured to refresh the tokens of \(path) at") == true)
        #expect(refresh?.message.hasSuffix("they cannot be refreshed: sign in again with an upstream") == true)
        let revoke = Self.problem { () throws(HostTokenProblem) in
            try TokenIssuer.upstream(flags: ConfigurationFlags(), tokenPath: path, use: .revoke, environment: Self.environment)
        }
        #expect(revoke?.message.hasSuffix("nothing can use them any more, so just delete \(path)") == true)
    }

    @Test("a configuration that cannot be loaded: its problems, status 78")
    func badConfiguration() throws {
        let path = try Self.tokenFile(origin: nil)
        var flags = ConfigurationFlags()
        flags.port = "not-a-port"
        let problem = Self.problem { () throws(HostTokenProblem) in
            try TokenIssuer.upstream(flags: flags, tokenPath: path, use: .refresh, environment: Self.environment)
        }
        #expect(problem?.exitStatus == 78)
        #expect(problem?.message.contains("--port") == true)
    }
}
