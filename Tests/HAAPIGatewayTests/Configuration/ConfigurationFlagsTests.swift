import Foundation
import Testing

@testable import HAAPIGateway

/// ``ConfigurationFlags``: which key each flag sets, the flags of a local gateway, the file in use, the configuration
/// they load, and their printing with a secret redacted.
@Suite("The configuration's flags")
struct ConfigurationFlagsTests {
    @Test("each flag given sets its key; a flag not given sets nothing; the switches set true")
    func values() {
        var flags = ConfigurationFlags()
        #expect(flags.values.allSatisfy { $0.value == nil })
        flags.port = "9000"
        flags.callbacks = ["file:/tmp/out"]
        flags.demoStrict = true
        let given = flags.values.filter { $0.value != nil }
        #expect(given.map(\.flag) == ["--port", "--callback", "--demo-strict"])
        #expect(given.map(\.key.path) == [ConfigurationKey.serverPort.path, ConfigurationKey.callbacksSinks.path, ConfigurationKey.demoStrict.path])
    }

    @Test("the local gateway's flags: --config and every flag given but --log-level")
    func localGatewayFlags() {
        var flags = ConfigurationFlags()
        flags.logLevel = "debug"
        #expect(flags.localGatewayFlags.isEmpty)
        flags.configFile = "/etc/g.yaml"
        flags.host = "0.0.0.0"
        #expect(flags.localGatewayFlags == ["--config", "--host"])
    }

    @Test("printed or dumped, the flags show a secret's value redacted")
    func printedRedacted() {
        var flags = ConfigurationFlags()
        flags.configFile = "/etc/g.yaml"
        flags.clientSecret = "s3cret-value"
        flags.clientID = "gateway"
        var dumped = ""
        dump(flags, to: &dumped)
        for text in [flags.description, flags.debugDescription, "\(flags)", String(reflecting: flags), dumped] {
            #expect(!text.contains("s3cret-value"))
            #expect(text.contains("--config /etc/g.yaml"))
            #expect(text.contains("gateway"))
        }
    }

    @Test("the file in use: --config, else $HAAPI_GATEWAY_CONFIG (not when empty), else the user's file")
    func configurationFile() {
        var flags = ConfigurationFlags()
        let variable = ConfigurationLayers.configurationFileVariable
        #expect(flags.configurationFile(environment: [:]) == nil)
        #expect(flags.configurationFile(environment: [:], userFile: "/home/u/c.yaml") == "/home/u/c.yaml")
        #expect(flags.configurationFile(environment: [variable: ""], userFile: "/home/u/c.yaml") == "/home/u/c.yaml")
        #expect(flags.configurationFile(environment: [variable: "/env.yaml"], userFile: "/home/u/c.yaml") == "/env.yaml")
        flags.configFile = "/flag.yaml"
        #expect(flags.configurationFile(environment: [variable: "/env.yaml"], userFile: "/home/u/c.yaml") == "/flag.yaml")
    }

    @Test("loading: the flags win over the environment, and a bad value is a problem naming its flag")
    func load() throws {
        var flags = ConfigurationFlags()
        flags.port = "9000"
        let configuration = try flags.load(environment: [ConfigurationKey.serverPort.environmentName: "8000"])
        #expect(configuration.server.port == 9000)
        flags.port = "not-a-port"
        #expect(throws: ConfigurationError.self) { try flags.load(environment: [:]) }
        do {
            _ = try flags.load(environment: [:])
        } catch {
            #expect(error.problems.contains { $0.contains("--port") })
        }
    }
}
