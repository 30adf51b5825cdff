import Foundation
import HAAPIGateway
import Testing

/// The `devices` section: device clients as a list of mappings in the file or a JSON array in the environment, their
/// secrets from files next to the configuration, and every problem listed at once.
@Suite("Device configuration")
struct DeviceConfigurationTests {
    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("device-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url.appendingPathComponent("secrets"), withIntermediateDirectories: true)
        return url
    }

    private func problems(_ yaml: String, in directory: URL, environment: [String: String] = [:]) -> [String] {
        let file = directory.appendingPathComponent("gateway.yaml")
        try? yaml.write(to: file, atomically: true, encoding: .utf8)
        do {
            _ = try GatewayConfiguration.load(file: file.path, environment: environment)
            return []
        } catch {
            return error.problems
        }
    }

    @Test("clients from the file: a confidential one with its secret file (relative to the file) and a public one")
    func clientsFromTheFile() throws {
        let directory = try directory()
        try "a-device-secret-of-some-length\n".write(to: directory.appendingPathComponent("secrets/build-host"), atomically: true, encoding: .utf8)
        let file = directory.appendingPathComponent("gateway.yaml")
        try """
        devices:
          enabled: true
          clients:
            - id: build-host
              name: Build host 3
              secretFile: secrets/build-host
            - id: cli
              name: Command line
        """.write(to: file, atomically: true, encoding: .utf8)
        let configuration = try GatewayConfiguration.load(file: file.path, environment: [:])
        #expect(configuration.devices.enabled)
        #expect(
            configuration.devices.clients == [
                DeviceClient(id: "build-host", name: "Build host 3", secret: "a-device-secret-of-some-length"),
                DeviceClient(id: "cli", name: "Command line"),
            ]
        )
        #expect(configuration.summary.contains { $0.hasPrefix("devices: on for build-host, cli;") })
        #expect(!configuration.summary.joined().contains("a-device-secret"))
    }

    @Test(
        "devices beyond loopback need server.publicURL: listening on 0.0.0.0 without it stops startup naming both settings; with it, or on loopback alone, they start"
    )
    func devicesBeyondLoopbackNeedAPublicURL() throws {
        let devices = ["HAAPI_GATEWAY_DEVICES_ENABLED": "true", "HAAPI_GATEWAY_DEVICES_CLIENTS": #"[{"id":"kiosk-1","name":"Lobby kiosk"}]"#]
        var problems: [String] = []
        do {
            _ = try GatewayConfiguration.load(file: nil, environment: devices.merging(["HAAPI_GATEWAY_SERVER_HOST": "0.0.0.0"]) { $1 })
        } catch {
            problems = error.problems
        }
        #expect(
            problems.contains { $0.contains("devices.enabled") && $0.contains("needs server.publicURL") && $0.contains("Host header") },
            "\(problems)"
        )
        let published = try GatewayConfiguration.load(
            file: nil,
            environment: devices.merging(["HAAPI_GATEWAY_SERVER_HOST": "0.0.0.0", "HAAPI_GATEWAY_SERVER_PUBLIC_URL": "https://login.example.com"]) {
                $1
            }
        )
        #expect(published.devices.enabled)
        #expect(try GatewayConfiguration.load(file: nil, environment: devices).devices.enabled, "127.0.0.1, the default, is loopback")
    }

    @Test("clients from the environment as a JSON array")
    func clientsFromTheEnvironment() throws {
        let configuration = try GatewayConfiguration.load(
            file: nil,
            environment: ["HAAPI_GATEWAY_DEVICES_ENABLED": "true", "HAAPI_GATEWAY_DEVICES_CLIENTS": #"[{"id":"kiosk-1","name":"Lobby kiosk"}]"#]
        )
        #expect(configuration.devices.clients == [DeviceClient(id: "kiosk-1", name: "Lobby kiosk")])
        let problems: [String]
        do {
            _ = try GatewayConfiguration.load(file: nil, environment: ["HAAPI_GATEWAY_DEVICES_CLIENTS": "kiosk-1"])
            problems = []
        } catch {
            problems = error.problems
        }
        #expect(problems.contains { $0.contains("devices.clients") && $0.contains("JSON array") }, "\(problems)")
    }

    @Test("every problem of the section at once: no name, a twice-registered id, a missing or short secret file, an unknown field, no clients")
    func everyProblemListed() throws {
        let directory = try directory()
        try "short".write(to: directory.appendingPathComponent("secrets/short"), atomically: true, encoding: .utf8)
        let listed = problems(
            """
            devices:
              enabled: true
              clients:
                - id: a
                - id: b
                  name: B
                  secretFile: secrets/missing
                - id: b
                  name: B again
                - id: c
                  name: C
                  secretFile: secrets/short
                  colour: red
            """,
            in: directory
        )
        #expect(listed.contains { $0.contains("entry 1") && $0.contains("needs a name") }, "\(listed)")
        #expect(listed.contains { $0.contains("cannot read the secret file") })
        #expect(listed.contains { $0.contains("registered twice") })
        #expect(listed.contains { $0.contains("at least 16 characters") })
        #expect(listed.contains { $0.contains("unknown field 'colour'") })
        #expect(problems("devices:\n  enabled: true\n", in: directory).contains { $0.contains("registers no device client") })
        #expect(problems("devices:\n  clients:\n    - id: x\n      name: X\n", in: directory).contains { $0.contains("devices.enabled is not true") })
        #expect(problems("devices:\n  clients: x\n", in: directory).contains { $0.contains("must be a list of mappings") })
    }
}
