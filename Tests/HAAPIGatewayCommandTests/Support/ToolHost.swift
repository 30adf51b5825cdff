import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// A signed-in host as the tools the credential helpers serve see it (git, the Kubernetes and Docker clients): a home
/// of its own (`HOME`) with the token file where `login` puts it by default (`~/.config/haapi-gateway/tokens.json`),
/// so that the documented setup lines need no `--token-file`; `PATH` with a directory of its own (for symlinks) and
/// `haapi-gateway`'s first; git's system configuration and its prompts off; the client secret a refresh needs.
struct ToolHost {
    /// The home directory.
    let home: URL
    /// The token file, at the default place under `home`.
    let tokenFile: URL
    /// A directory first on `PATH`, for the symlinks a setup line makes.
    let bin: URL
    /// The whole environment of the tools run here.
    let environment: [String: String]

    /// The tokens of the token file.
    struct Tokens: Decodable {
        let accessToken: String
        let idToken: String?
        let tokenType: String
    }

    /// A host without a sign-in.
    static func empty() throws -> ToolHost {
        let home = try Repository.temporaryDirectory().appendingPathComponent("home")
        let bin = home.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        let inherited = ProcessInfo.processInfo.environment
        let path = [bin.path, Repository.executable.deletingLastPathComponent().path, inherited["PATH"] ?? "/usr/bin:/bin"].joined(separator: ":")
        let environment = SignedInHost.environment.merging([
            "HOME": home.path, "PATH": path, "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C",
        ]) { _, mine in mine }
        return ToolHost(
            home: home,
            tokenFile: home.appendingPathComponent(".config/haapi-gateway/tokens.json"),
            bin: bin,
            environment: environment
        )
    }

    /// A host signed in with a real `login` against `demo`, its token file moved to the default place under its home.
    static func signedIn(_ demo: RunningDemoServer) async throws -> ToolHost {
        let host = try empty()
        let loggedIn = try await SignedInHost.login(demo)
        let directory = host.tokenFile.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.moveItem(at: loggedIn, to: host.tokenFile)
        return host
    }

    /// The tokens in the token file now.
    func tokens() throws -> Tokens {
        struct Document: Decodable { let token: Tokens }
        return try JSONDecoder().decode(Document.self, from: Data(contentsOf: tokenFile)).token
    }

    /// Runs `line` with `/bin/sh -c` in `directory` (the home when nil), as a person types it.
    func shell(_ line: String, in directory: URL? = nil) async throws -> ProcessResult {
        try await runProgram(URL(fileURLWithPath: "/bin/sh"), ["-c", line], environment: environment, directory: directory ?? home, seconds: 120)
    }

    /// Runs `program` (found on `PATH`) with `arguments` in `directory` (the home when nil).
    func run(_ program: String, _ arguments: [String], in directory: URL? = nil) async throws -> ProcessResult {
        try await runProgram(
            URL(fileURLWithPath: "/usr/bin/env"),
            [program] + arguments,
            environment: environment,
            directory: directory ?? home,
            seconds: 120
        )
    }

    /// The status of `GET <demo>/oauth/v2/oauth-userinfo` with `Authorization: Bearer <token>`: 200 when the demo takes
    /// the token.
    static func userinfoStatus(_ demo: RunningDemoServer, bearer token: String) async throws -> Int {
        let port = try #require(demo.baseURL.port)
        return try await RawHTTPExchange.send(
            "GET /oauth/v2/oauth-userinfo HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n",
            port: port
        ).status
    }
}
