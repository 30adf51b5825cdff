import Foundation
import HAAPIGateway
import Testing

/// The `startLinks` section: a secret of at least 32 characters from a file, only allowable parameters, every problem
/// listed.
@Suite("Start link configuration")
struct StartLinkConfigurationTests {
    @Test("a secret file and allowed parameters load; a short secret, a parameter a link may not set and a previous secret alone are problems")
    func section() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("start-link-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "0123456789abcdef0123456789abcdef\n".write(to: directory.appendingPathComponent("secret"), atomically: true, encoding: .utf8)
        try "short".write(to: directory.appendingPathComponent("short"), atomically: true, encoding: .utf8)
        let good = directory.appendingPathComponent("good.yaml")
        try "startLinks:\n  secretFile: secret\n  allowedParameters: [login_hint, prompt]\n".write(to: good, atomically: true, encoding: .utf8)
        let configuration = try GatewayConfiguration.load(file: good.path, environment: [:])
        #expect(configuration.startLinks.secret == "0123456789abcdef0123456789abcdef")
        #expect(configuration.startLinks.allowedParameters == ["login_hint", "prompt"])
        #expect(configuration.summary.contains { $0.hasPrefix("start links: signed (secret <redacted>)") })
        #expect(!configuration.summary.joined().contains("0123456789abcdef"))

        let bad = directory.appendingPathComponent("bad.yaml")
        try "startLinks:\n  secretFile: short\n  allowedParameters: [login_hint, redirect_uri]\n".write(to: bad, atomically: true, encoding: .utf8)
        var problems: [String] = []
        do { _ = try GatewayConfiguration.load(file: bad.path, environment: [:]) } catch { problems = error.problems }
        #expect(problems.contains { $0.contains("startLinks.secretFile") && $0.contains("at least 32 characters") }, "\(problems)")
        #expect(problems.contains { $0.contains("'redirect_uri' cannot be given by a link") })
        do {
            _ = try GatewayConfiguration.load(
                file: nil,
                environment: ["HAAPI_GATEWAY_START_LINKS_PREVIOUS_SECRET_FILE": directory.appendingPathComponent("secret").path]
            )
            Issue.record("a previous secret without a secret loaded")
        } catch {
            #expect(error.problems.contains { $0.contains("startLinks.secretFile is not") })
        }
    }
}
