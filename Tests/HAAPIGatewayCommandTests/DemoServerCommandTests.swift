import HAAPIDemoServer
import Testing

@testable import haapi_gateway

/// Smoke checks of the `haapi-gateway demo-server` subcommand's flags.
@Suite struct DemoServerCommandTests {
    @Test func parsesItsFlags() throws {
        let command = try DemoServerCommand.parse([
            "--host", "127.0.0.1", "--port", "0", "--nonce", "--client-key-path", "/tmp/key.pem", "--flow-lifetime-seconds", "30",
        ])
        let configuration = try command.options.arguments.configuration()
        #expect(configuration.host == "127.0.0.1")
        #expect(configuration.port == 0)
        #expect(configuration.requireDPoPNonce)
        #expect(configuration.clientKeyPath == "/tmp/key.pem")
        #expect(configuration.flowLifetimeSeconds == 30)
    }

    @Test func defaultsToLoopbackWithoutNonces() throws {
        let configuration = try DemoServerCommand.parse([]).options.arguments.configuration()
        #expect(configuration.bindsLoopbackOnly)
        #expect(configuration.port == 8443)
        #expect(!configuration.requireDPoPNonce)
    }

    @Test func strictTurnsOnEveryStrictCheckAndSaysSoInItsHelp() throws {
        let strict = try DemoServerCommand.parse(["--strict", "--port", "0"]).options.arguments.configuration()
        #expect(strict.requireDPoPNonce && strict.noncesPerKey && strict.issueTokenBoundAuthorizationCodes && strict.requiresStickinessCookie)
        #expect(strict.port == 0)
        #expect(!(try DemoServerCommand.parse([]).options.arguments.configuration().noncesPerKey))
        let help = DemoServerCommand.helpMessage(columns: 400)
        for phrase in ["--strict", "per DPoP key", "invalid_dpop_proof", "demo-node", "demo-unused", "authorization-code-dpop-binding"] {
            #expect(help.contains(phrase), "\(phrase)")
        }
    }

    /// Curity 11.4's two DPoP binding settings: required with --strict, client-requested without, and each settable.
    @Test func theDPoPBindingsFollowStrictAndCanBeSetOneByOne() throws {
        let strict = try DemoServerCommand.parse(["--strict"]).options.arguments.configuration()
        #expect(strict.authorizationCodeDPoPBinding == .required && strict.tokenDPoPBinding == .required)
        let plain = try DemoServerCommand.parse([]).options.arguments.configuration()
        #expect(plain.authorizationCodeDPoPBinding == .clientRequested && plain.tokenDPoPBinding == .clientRequested)
        let relaxed = try DemoServerCommand.parse(["--strict", "--authorization-code-dpop-binding", "client-requested"]).options.arguments
            .configuration()
        #expect(relaxed.authorizationCodeDPoPBinding == .clientRequested && relaxed.tokenDPoPBinding == .required)
        let tokensOnly = try DemoServerCommand.parse(["--token-dpop-binding", "required"]).options.arguments.configuration()
        #expect(tokensOnly.authorizationCodeDPoPBinding == .clientRequested && tokensOnly.tokenDPoPBinding == .required)
        #expect(throws: (any Error).self) { try DemoServerCommand.parse(["--token-dpop-binding", "always"]) }
        #expect(throws: (any Error).self) { try DemoServerCommand.parse(["--authorization-code-dpop-binding", "inherit-from-profile"]) }
    }

    @Test func consumesCodesOnRefusedProofNeedsStrictAndTurnsTheSwitchOn() throws {
        let consuming = try DemoServerCommand.parse(["--strict", "--consumes-codes-on-refused-proof"]).options.arguments.configuration()
        #expect(consuming.issueTokenBoundAuthorizationCodes && consuming.consumesCodesOnRefusedProof)
        #expect(!(try DemoServerCommand.parse(["--strict"]).options.arguments.configuration().consumesCodesOnRefusedProof))
        #expect(throws: (any Error).self) { try DemoServerCommand.parse(["--consumes-codes-on-refused-proof"]) }
        #expect(DemoServerCommand.helpMessage(columns: 400).contains("Curity does not document whether it does"))
    }

    @Test func rejectsBadValues() {
        #expect(throws: (any Error).self) { try DemoServerCommand.parse(["--port", "70000"]) }
        #expect(throws: (any Error).self) { try DemoServerCommand.parse(["--log-level", "loud"]) }
        #expect(throws: (any Error).self) { try DemoServerCommand.parse(["--public-base-url", "ftp://x"]) }
    }

    @Test func subcommandIsRegistered() throws {
        let parsed = try HAAPIGatewayCommand.parseAsRoot(["demo-server", "--port", "0"])
        #expect(parsed is DemoServerCommand)
    }
}
