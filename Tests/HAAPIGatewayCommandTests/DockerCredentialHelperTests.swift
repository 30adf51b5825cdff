import Foundation
import HAAPIDemoServer
import Testing

@testable import GatewayTestSupport

/// `docker-credential-haapi-gateway` as the Docker SDK for Python's credential store runs it (`Tests/Interop/
/// docker_credential_store.py`: it finds the helper on `PATH` by that name and speaks the docker-credential-helpers
/// protocol), made with the symlink line and the `credHelpers` entry of `docs/headless-and-devices.md` as written,
/// after a real `login`.
@Suite("Docker credential helper, driven by the Docker SDK", .startsPrograms())
struct DockerCredentialHelperTests {
    /// The documented link line, made in the host's own directory on `PATH` rather than /usr/local/bin.
    static func linkLine(into bin: URL) throws -> String {
        let line = try DocumentedSetup.block(under: "### Docker and OCI registries", language: "sh")
        #expect(line == #"ln -s "$(command -v haapi-gateway)" /usr/local/bin/docker-credential-haapi-gateway"#, "the line the tests run")
        return line.replacingOccurrences(of: "/usr/local/bin/", with: bin.path + "/")
    }

    /// Docker's configuration directory holding the documented `credHelpers` entry, and the registry it names.
    static func dockerConfiguration(in home: URL) throws -> (directory: URL, registry: String) {
        let json = try DocumentedSetup.block(under: "### Docker and OCI registries", language: "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: [String: String]])
        let registry = try #require(object["credHelpers"]?.first { $0.value == "haapi-gateway" }?.key)
        let directory = home.appendingPathComponent(".docker")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try json.write(to: directory.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
        return (directory, registry)
    }

    /// The JSON line of each step the script printed, by step.
    static func steps(_ output: String) throws -> [String: [String: Any]] {
        var steps: [String: [String: Any]] = [:]
        for line in output.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            steps[try #require(object["step"] as? String)] = object
        }
        return steps
    }

    @Test(
        "the Docker SDK's store gets an access token userinfo accepts through the documented symlink and credHelpers entry; list names the registry; another registry is CredentialsNotFound; store and erase keep and end nothing",
        .enabled(if: TestTools.dockerSDKAvailable, "needs the Docker SDK for Python (PyPI docker; .ci/run installs it)")
    )
    func dockerSDKGetsTheToken() async throws {
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let host = try await ToolHost.signedIn(demo)
            let linked = try await host.shell(try Self.linkLine(into: host.bin))
            #expect(linked.status == 0, "\(linked.standardError)")
            let (directory, registry) = try Self.dockerConfiguration(in: host.home)
            let tokens = try host.tokens()

            let result = try await host.run(
                "python3",
                [
                    Repository.root.appendingPathComponent("Tests/Interop/docker_credential_store.py").path, directory.path, registry,
                    "index.docker.io",
                ]
            )
            #expect(result.status == 0, "\(result.standardError)")
            let steps = try Self.steps(result.standardOutput)
            let got = try #require(steps["get"]?["result"] as? [String: String], "\(steps)")
            #expect(got == ["ServerURL": registry, "Username": "oauth2accesstoken", "Secret": tokens.accessToken])
            #expect(try await ToolHost.userinfoStatus(demo, bearer: tokens.accessToken) == 200)
            #expect(steps["list"]?["result"] as? [String: String] == [registry: "oauth2accesstoken"])
            #expect(steps["get-other"]?["error"] as? String == "CredentialsNotFound", "\(steps["get-other"] ?? [:])")
            #expect(steps["store"]?["result"] as? String == "stored")
            #expect(steps["erase"]?["result"] as? String == "erased")
            #expect((steps["get-again"]?["result"] as? [String: String])?["Secret"] == tokens.accessToken, "erase ended nothing")
            #expect(!result.standardOutput.contains("a-password"), "store kept nothing")
        }
    }

    /// B29: a token never goes over plain http beyond this host. Docker hands a helper the server URL as its
    /// `credHelpers` entry names it; an entry or a URL that names `http://` to another host is refused, one on this
    /// host answered. Before, the Docker helper answered any registry its entries named, over whatever scheme.
    @Test("plain http to a registry on another host is refused, by its server URL or its credHelpers entry; plain http on this host is answered")
    func plainHTTPBeyondThisHostIsRefused() async throws {
        try await SignedInHost.withDemo({ $0.bindOnlyWhenRequested() }) { demo in
            let host = try await ToolHost.signedIn(demo)
            let directory = host.home.appendingPathComponent(".docker")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try """
            {"credHelpers": {"http://registry.example:5000": "haapi-gateway", "registry.example:5001": "haapi-gateway",
              "http://127.0.0.1:5002": "haapi-gateway"}}
            """.write(to: directory.appendingPathComponent("config.json"), atomically: true, encoding: .utf8)
            let tokens = try host.tokens()
            for (asked, named) in [
                ("http://registry.example:5000", "http://registry.example:5000"), ("registry.example:5000", "http://registry.example:5000"),
                ("http://registry.example:5001/v2/", "http://registry.example:5001/v2/"),
            ] {
                let refused = try await host.shell("printf '\(asked)' | haapi-gateway docker-credential get")
                #expect(refused.status == 1, "\(asked): \(refused.standardOutput)")
                #expect(
                    refused.standardOutput
                        == "haapi-gateway: \(named): plain http would send the token in clear; "
                        + "it goes to registries over https, or plain http on this host only\n",
                    "\(asked): \(refused.standardOutput)"
                )
                #expect(!refused.standardOutput.contains(tokens.accessToken) && !refused.standardError.contains(tokens.accessToken))
            }
            let secure = try await host.shell("printf 'https://registry.example:5001' | haapi-gateway docker-credential get")
            #expect(secure.status == 0, "\(secure.standardOutput)")
            let local = try await host.shell("printf 'http://127.0.0.1:5002' | haapi-gateway docker-credential get")
            #expect(local.status == 0, "\(local.standardOutput)")
            let answer = try #require(try JSONSerialization.jsonObject(with: Data(local.standardOutput.utf8)) as? [String: String])
            #expect(answer["Secret"] == tokens.accessToken, "this host itself: nothing crosses a network")
        }
    }

    @Test("haapi-gateway docker-credential speaks the same protocol: the server URL on standard input, errors as one line on standard output")
    func theSubcommandSpeaksTheProtocol() async throws {
        let host = try ToolHost.empty()
        let (_, registry) = try Self.dockerConfiguration(in: host.home)
        let list = try await host.run("haapi-gateway", ["docker-credential", "list"])
        #expect(list.status == 0)
        #expect(list.standardOutput == "{\"\(registry)\":\"oauth2accesstoken\"}\n")
        let other = try await host.shell("printf 'https://index.docker.io/v1/' | haapi-gateway docker-credential get")
        #expect(other.status == 1)
        #expect(other.standardOutput == "credentials not found in native keychain\n")
        let empty = try await host.shell("printf '' | haapi-gateway docker-credential get")
        #expect(empty.status == 1)
        #expect(empty.standardOutput == "no credentials server URL\n")
        let noSignIn = try await host.shell("printf 'https://\(registry)/v2/' | haapi-gateway docker-credential get")
        #expect(noSignIn.status == 1)
        #expect(noSignIn.standardOutput == "haapi-gateway: no sign-in in \(host.tokenFile.path): run haapi-gateway login\n")
    }
}
