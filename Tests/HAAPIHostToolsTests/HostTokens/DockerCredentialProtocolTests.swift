import Foundation
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// The docker-credential-helpers protocol as the Docker credential helper speaks it: which registries it answers (the
/// `credHelpers` entries naming it), what `get` and `list` print, and the program name it is run by.
@Suite("Docker credential protocol")
struct DockerCredentialProtocolTests {
    @Test("the registries are the credHelpers entries naming haapi-gateway; a server URL matches by host and port, whatever its scheme and path")
    func registries() throws {
        let configuration =
            #"{"auths":{"other.example.com":{"auth":"eA=="}},"credsStore":"haapi-gateway","credHelpers":{"registry.example.com":"haapi-gateway","localhost:5000":"haapi-gateway","gcr.io":"gcloud"}}"#
        let registries = try DockerCredentialRegistries.parse(Data(configuration.utf8), path: "/c.json").get()
        #expect(registries.servers == ["localhost:5000", "registry.example.com"], "credsStore hands nothing to it")
        #expect(registries.registry(for: "registry.example.com") == "registry.example.com")
        #expect(registries.registry(for: "https://Registry.Example.com/v2/") == "registry.example.com")
        #expect(registries.registry(for: "http://localhost:5000") == "localhost:5000")
        for other in [
            "gcr.io", "index.docker.io", "https://index.docker.io/v1/", "registry.example.com.evil.test", "localhost", "", "other.example.com",
        ] {
            #expect(registries.registry(for: other) == nil, "\(other)")
        }
        #expect(registries.listing == #"{"localhost:5000":"oauth2accesstoken","registry.example.com":"oauth2accesstoken"}"#)
        #expect(try DockerCredentialRegistries.parse(Data("{}".utf8), path: "/c.json").get().servers.isEmpty)
        #expect((try? DockerCredentialRegistries.parse(Data("[".utf8), path: "/c.json").get()) == nil)
    }

    @Test("Docker's configuration is $DOCKER_CONFIG/config.json, else ~/.docker/config.json")
    func configurationPath() {
        #expect(DockerCredentialRegistries.configurationPath(environment: ["DOCKER_CONFIG": "/d", "HOME": "/h"]) == "/d/config.json")
        #expect(DockerCredentialRegistries.configurationPath(environment: ["HOME": "/h"]) == "/h/.docker/config.json")
    }

    /// Issue #55's probe: a configuration of 300 000 entries cost 30 s and 600 MB each time Docker asked.
    @Test("a Docker configuration larger than 4 MiB is refused (exit 78) naming its size, before it is read")
    func aHugeConfigurationIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("docker-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("config.json")
        let entries = (0..<110_000).map { #""registry-\#($0).example":"haapi-gateway""# }.joined(separator: ",")
        try Data(#"{"credHelpers":{\#(entries)}}"#.utf8).write(to: path)
        let size = try #require((try FileManager.default.attributesOfItem(atPath: path.path))[.size] as? NSNumber).intValue
        try #require(size > DockerCredentialRegistries.maximumConfigurationBytes, "\(size) bytes")
        guard case .failure(let problem) = DockerCredentialRegistries.read(environment: ["DOCKER_CONFIG": directory.path]) else {
            Issue.record("a configuration of \(size) bytes was read")
            return
        }
        #expect(problem.exitStatus == 78)
        #expect(problem.message.contains("is \(size) bytes, more than the 4 MiB this helper reads"), "\(problem.message)")
        // One just under the bound is read.
        try Data(#"{"credHelpers":{"registry.example":"haapi-gateway"}}"#.utf8).write(to: path)
        #expect((try? DockerCredentialRegistries.read(environment: ["DOCKER_CONFIG": directory.path]).get().servers.count) == 1)
    }

    @Test("get's answer and the protocol's messages")
    func answers() {
        let credential = DockerCredential(serverURL: "https://registry.example.com", token: CredentialHelperToken(value: "tok", expiry: nil))
        #expect(credential.json == #"{"Secret":"tok","ServerURL":"https://registry.example.com","Username":"oauth2accesstoken"}"#)
        #expect(DockerCredential.serverURL(in: " registry.example.com\n") == "registry.example.com")
        #expect(DockerCredential.serverURL(in: "\n") == nil)
        #expect(DockerCredential.notFoundMessage == "credentials not found in native keychain")
    }

    @Test("run as docker-credential-haapi-gateway, the arguments are docker-credential's; otherwise as given")
    func invocation() {
        #expect(DockerCredentialInvocation.arguments(["/usr/local/bin/docker-credential-haapi-gateway", "get"]) == ["docker-credential", "get"])
        #expect(DockerCredentialInvocation.arguments(["docker-credential-haapi-gateway", "list"]) == ["docker-credential", "list"])
        #expect(DockerCredentialInvocation.arguments(["/usr/bin/haapi-gateway", "token", "--json"]) == ["token", "--json"])
        #expect(DockerCredentialInvocation.arguments(["/x/docker-credential-haapi-gateway-old", "get"]) == ["get"])
    }
}
