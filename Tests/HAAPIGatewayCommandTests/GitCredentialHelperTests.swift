import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// `haapi-gateway git-credential` and `setup-git` as git uses them, after a real `login`: a real `git clone` over smart
/// HTTP from a server that lets through only a token the sign-in's userinfo endpoint accepts (`Tests/Interop/
/// git_http_server.py`), with the helper configured by `docs/headless-and-devices.md`'s `setup-git` line as written.
@Suite("git's credential helper, driven by git", .startsPrograms())
struct GitCredentialHelperTests {
    /// The git server of `Tests/Interop/git_http_server.py`, serving the bare repositories under `root`.
    final class GitServer: @unchecked Sendable {
        let process: SpawnedProcess
        let output = CollectedOutput()
        let port: Int

        init(root: URL, demo: RunningDemoServer, host: ToolHost) async throws {
            let (standardOutput, standardError) = output.pipes()
            process = try SpawnedProcess(
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                arguments: [
                    "python3", Repository.root.appendingPathComponent("Tests/Interop/git_http_server.py").path, root.path,
                    demo.baseURL.absoluteString + "/oauth/v2/oauth-userinfo",
                ],
                environment: host.environment,
                standardOutput: standardOutput,
                standardError: standardError
            )
            port = try #require(Int(try await output.waitFor(#"^(\d+)\n"#)))
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    /// A bare repository `repo.git` under `root` with one commit on `main`, made with git.
    static func bareRepository(under root: URL, host: ToolHost) async throws {
        let work = root.appendingPathComponent("work")
        let steps: [[String]] = [
            ["-c", "init.defaultBranch=main", "init", "--bare", root.appendingPathComponent("repo.git").path],
            ["-c", "init.defaultBranch=main", "init", work.path],
            ["-C", work.path, "-c", "user.name=Test", "-c", "user.email=test@example.com", "commit", "--allow-empty", "-m", "signed in"],
            ["-C", work.path, "push", root.appendingPathComponent("repo.git").path, "main"],
        ]
        for step in steps {
            let result = try await host.run("git", step)
            try #require(result.status == 0, "git \(step.joined(separator: " ")): \(result.standardError)")
        }
    }

    /// The documented setup line with the documented host replaced by `url`.
    static func setupLine(for url: String) throws -> String {
        let line = try DocumentedSetup.block(under: "### git", language: "sh")
        #expect(line == "haapi-gateway setup-git --host git.example.com", "the line the tests run")
        return line.replacingOccurrences(of: "git.example.com", with: url)
    }

    @Test(
        "git clone succeeds through the documented setup-git line, and fails without it: the server takes only the sign-in's token; setup-git twice leaves one helper after an empty one, and a global store helper never sees the token",
        .enabled(if: TestTools.gitAvailable, "needs git (.ci/run installs it)")
    )
    func gitCloneThroughTheHelper() async throws {
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let host = try await ToolHost.signedIn(demo)
            let root = host.home.appendingPathComponent("served")
            try await Self.bareRepository(under: root, host: host)
            // A helper that would keep whatever git hands it, in ~/.git-credentials, as many people have configured.
            try "[credential]\n\thelper = store\n".write(to: host.home.appendingPathComponent(".gitconfig"), atomically: true, encoding: .utf8)
            let server = try await GitServer(root: root, demo: demo, host: host)
            let url = "http://127.0.0.1:\(server.port)"

            let refused = try await host.run("git", ["clone", url + "/repo.git", "without"])
            #expect(refused.status != 0, "without the helper the server must refuse: \(refused.standardOutput)")
            #expect(server.output.text(error: false).contains(#""status": 401"#))

            let setup = try Self.setupLine(for: url)
            for _ in 0..<2 {
                let configured = try await host.shell(setup)
                #expect(configured.status == 0, "\(configured.standardError)")
            }
            let helpers = try await host.run("git", ["config", "--global", "--get-all", "credential.\(url).helper"])
            let executable = Repository.executable.resolvingSymlinksInPath().path
            #expect(helpers.standardOutput == "\n!\(executable) git-credential\n", "an empty helper, then this executable's absolute path, once")

            let cloned = try await host.run("git", ["clone", url + "/repo.git", "with"])
            #expect(cloned.status == 0, "\(cloned.standardError)")
            let log = try await host.run("git", ["-C", host.home.appendingPathComponent("with").path, "log", "--format=%s"])
            #expect(log.standardOutput == "signed in\n")
            let tokens = try host.tokens()
            let stored = (try? String(contentsOf: host.home.appendingPathComponent(".git-credentials"), encoding: .utf8)) ?? ""
            #expect(!stored.contains(tokens.accessToken), "the global store helper was asked to keep the token")

            // `git credential reject` runs the helper's erase: the sign-in stays, and git still gets the token.
            let rejected = try await host.shell("printf 'protocol=http\\nhost=127.0.0.1:\(server.port)\\n' | git credential reject")
            #expect(rejected.status == 0, "\(rejected.standardError)")
            #expect(FileManager.default.fileExists(atPath: host.tokenFile.path), "erase must not end the sign-in")
            let fill = try await host.shell("printf 'protocol=http\\nhost=127.0.0.1:\(server.port)\\n' | git credential fill")
            #expect(fill.standardOutput.contains("username=haapi-gateway\npassword=\(tokens.accessToken)\n"), "\(fill.standardError)")
        }
    }

    /// Issue #55's probe: a generic `credential.helper store` configured after `setup-git`'s lines comes after its empty
    /// helper in git's order, and git hands the credential to every helper of the chain to store once it works: the
    /// token was written to `~/.git-credentials`. Now `git-credential` answers nothing while another helper would be
    /// handed the token, and says which and what to do.
    @Test(
        "a credential.helper store configured after setup-git never receives the token: git-credential answers nothing, naming it, until setup-git's empty helper comes after it again",
        .enabled(if: TestTools.gitAvailable, "needs git (.ci/run installs it)")
    )
    func aLaterStoreHelperNeverReceivesTheToken() async throws {
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let host = try await ToolHost.signedIn(demo)
            let root = host.home.appendingPathComponent("served")
            try await Self.bareRepository(under: root, host: host)
            let server = try await GitServer(root: root, demo: demo, host: host)
            let url = "http://127.0.0.1:\(server.port)"
            let setup = try Self.setupLine(for: url)
            #expect(try await host.shell(setup).status == 0)
            let later = try await host.run("git", ["config", "--global", "credential.helper", "store"])
            #expect(later.status == 0, "\(later.standardError)")
            let tokens = try host.tokens()
            let stored = { (try? String(contentsOf: host.home.appendingPathComponent(".git-credentials"), encoding: .utf8)) ?? "" }

            let refused = try await host.run("git", ["clone", url + "/repo.git", "refused"])
            #expect(refused.status != 0, "the helper must not answer while store follows it: \(refused.standardError)")
            #expect(
                refused.standardError.contains("git would also hand the token to store (credential.helper in file:"),
                "\(refused.standardError)"
            )
            #expect(refused.standardError.contains("--remove-section credential.\(url)"), "\(refused.standardError)")
            #expect(!stored().contains(tokens.accessToken), "store was handed the token")

            // As the refusal says: setup-git's lines again, after the store helper.
            let removed = try await host.run("git", ["config", "--global", "--remove-section", "credential.\(url)"])
            #expect(removed.status == 0, "\(removed.standardError)")
            #expect(try await host.shell(setup).status == 0)
            let cloned = try await host.run("git", ["clone", url + "/repo.git", "cloned"])
            #expect(cloned.status == 0, "\(cloned.standardError)")
            #expect(!stored().contains(tokens.accessToken), "store was handed the token")
        }
    }

    @Test(
        "git-credential get answers the access token with its expiry for https, nothing for plain http to another host; store and erase keep nothing and end nothing"
    )
    func theProtocolAsGitSpeaksIt() async throws {
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let host = try await ToolHost.signedIn(demo)
            let tokens = try host.tokens()
            let answer = try await host.shell(
                #"printf 'protocol=https\nhost=git.example.com\npath=team/app.git\nwwwauth[]=Basic realm="x"\n\n' | haapi-gateway git-credential get"#
            )
            #expect(answer.status == 0, "\(answer.standardError)")
            let lines = answer.standardOutput.split(separator: "\n").map(String.init)
            #expect(Array(lines.prefix(2)) == ["username=haapi-gateway", "password=\(tokens.accessToken)"])
            let expiry = try #require(lines.last.flatMap { $0.hasPrefix("password_expiry_utc=") ? Double($0.dropFirst(20)) : nil })
            let expiresIn = expiry - Date().timeIntervalSince1970
            #expect((200...301).contains(expiresIn), "the access token lives 300 s: \(expiresIn)")
            #expect(try await ToolHost.userinfoStatus(demo, bearer: tokens.accessToken) == 200)

            let clear = try await host.shell(#"printf 'protocol=http\nhost=git.example.com\n' | haapi-gateway git-credential get"#)
            #expect(clear.status == 0)
            #expect(clear.standardOutput.isEmpty, "no token over plain http to another host")
            #expect(clear.standardError.contains("not sending the token to http://git.example.com"), "\(clear.standardError)")
            let loopback = try await host.shell(#"printf 'protocol=http\nhost=127.0.0.1:8080\n' | haapi-gateway git-credential get"#)
            #expect(loopback.standardOutput.contains("password=\(tokens.accessToken)\n"))

            for operation in ["store", "erase", "capability"] {
                let result = try await host.shell(
                    "printf 'protocol=https\\nhost=git.example.com\\nusername=haapi-gateway\\npassword=x\\n' | haapi-gateway git-credential \(operation)"
                )
                #expect(result.status == 0 && result.standardOutput.isEmpty && result.standardError.isEmpty, "\(operation): \(result)")
            }
            #expect(try host.tokens().accessToken == tokens.accessToken, "store and erase change nothing")

            // Written an hour ago, the access token has expired by the file's clock: get refreshes it first, where login
            // got it, and answers the new one.
            try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-3600)], ofItemAtPath: host.tokenFile.path)
            let refreshed = try await host.shell(#"printf 'protocol=https\nhost=git.example.com\n' | haapi-gateway git-credential get"#)
            let fresh = try host.tokens().accessToken
            #expect(fresh != tokens.accessToken, "refreshed: \(refreshed.standardError)")
            #expect(refreshed.standardOutput.contains("password=\(fresh)\n"))
            #expect(try await ToolHost.userinfoStatus(demo, bearer: fresh) == 200)
        }
    }

    @Test("setup-git refuses plain http to another host, and a host with a path, naming --host (exit 64) and writing nothing")
    func setupGitRefusesBadHosts() async throws {
        let host = try ToolHost.empty()
        for bad in ["http://git.example.com", "git.example.com/team", "https://git.example.com/team/app.git", "a host"] {
            let result = try await host.run("haapi-gateway", ["setup-git", "--host", bad])
            #expect(result.status == 64, "\(bad): \(result)")
            #expect(result.standardError.contains("--host"), "\(bad): \(result.standardError)")
        }
        #expect(!FileManager.default.fileExists(atPath: host.home.appendingPathComponent(".gitconfig").path), "nothing written")
    }
}
