import Foundation
import Testing

@testable import GatewayTestSupport

/// A standard RFC 8628 client this project did not write (Python's requests-oauth2client, `Tests/Interop/rfc8628_client.py`)
/// signs in through a gateway process: metadata, device authorization, polling as the library does, refresh and revocation
/// through the gateway; a person refusing the device makes it stop with `access_denied`.
@Suite("A standard device client against the gateway", .startsPrograms())
struct DeviceClientInteropTests {
    static let secret = "interop-device-secret-0123456789"

    /// A gateway process with device authorization on, its embedded demo upstream, its base URL and its directory.
    static func startGateway() async throws -> (RunningGateway, String, URL) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("device-interop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let (gateway, url) = try await CentralGateway.start(in: directory, secret: secret)
        return (gateway, url, directory)
    }

    /// The Python client, its JSON lines gathered as they come.
    final class PythonClient: @unchecked Sendable {
        let process: SpawnedProcess
        let output = CollectedOutput()

        /// - Parameters:
        ///   - baseURL: The gateway the device code is asked of.
        ///   - pollAndRefresh: Replicas of it that the library polls and refreshes through, when given.
        init(baseURL: String, pollAndRefresh: (poll: String, refresh: String)? = nil) throws {
            let (standardOutput, standardError) = output.pipes()
            process = try SpawnedProcess(
                executable: URL(fileURLWithPath: "/usr/bin/env"),
                arguments: [
                    "python3", Repository.root.appendingPathComponent("Tests/Interop/rfc8628_client.py").path, baseURL, "build-host",
                    DeviceClientInteropTests.secret,
                ]
                    + (pollAndRefresh.map { [$0.poll, $0.refresh] } ?? []),
                environment: ProcessInfo.processInfo.environment,
                standardOutput: standardOutput,
                standardError: standardError
            )
        }

        /// The JSON line of `step`, once printed.
        func step(_ step: String, timeout: Duration = .seconds(60)) async throws -> [String: Any] {
            let line = try await output.waitFor(#"(\{[^\n]*"step": "\#(step)"[^\n]*\})"#, timeout: timeout)
            return try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    @Test(
        "requests-oauth2client: device code, the person signs in, the library's polling gets Bearer tokens; refresh and revocation go through the gateway",
        .enabled(if: TestTools.deviceClientAvailable, "needs Python's requests-oauth2client (.ci/run installs it)")
    )
    func standardClientSignsIn() async throws {
        let (gateway, url, directory) = try await Self.startGateway()
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = try PythonClient(baseURL: url)
        let authorized = try await client.step("authorized")
        #expect(authorized["verification_uri"] as? String == url + "/device")
        try await TestBrowser.using(url) { person in
            let confirm = try await person.enterDeviceCode(completeURI: try #require(authorized["verification_uri_complete"] as? String))
            #expect(confirm.html.contains("Build host 3 is asking to sign in"))
            let done = try await person.signInAsDemoFrom(try await person.submit(try confirm.form(button: "It matches, continue")))
            #expect(done.html.contains("You can go back to Build host 3"))
        }
        let tokens = try await client.step("tokens")
        #expect(tokens["token_type"] as? String == "Bearer")
        #expect(tokens["has_access_token"] as? Bool == true)
        #expect(tokens["has_refresh_token"] as? Bool == true)
        #expect(tokens["has_id_token"] as? Bool == true)
        #expect(tokens["scope"] as? String == "openid profile")
        #expect(try await client.step("refreshed")["changed"] as? Bool == true)
        #expect(try await client.step("revoked")["refused"] as? Bool == true, "after revocation the refresh token is refused")
        gateway.signal(SIGTERM)
        _ = try await gateway.waitForExit(timeout: .seconds(30))
    }

    @Test(
        "requests-oauth2client: the person refuses the device; the library stops with access_denied",
        .enabled(if: TestTools.deviceClientAvailable, "needs Python's requests-oauth2client (.ci/run installs it)")
    )
    func standardClientIsRefused() async throws {
        let (gateway, url, directory) = try await Self.startGateway()
        defer { try? FileManager.default.removeItem(at: directory) }
        let client = try PythonClient(baseURL: url)
        let authorized = try await client.step("authorized")
        try await TestBrowser.using(url) { person in
            let confirm = try await person.enterDeviceCode(completeURI: try #require(authorized["verification_uri_complete"] as? String))
            _ = try await person.submit(try confirm.form(button: "It does not match, refuse"))
        }
        #expect(try await client.step("denied")["error"] as? String == "access_denied")
        gateway.signal(SIGTERM)
        _ = try await gateway.waitForExit(timeout: .seconds(30))
    }
}
