import HAAPIDemoServer
import HAAPIGateway
import Logging

/// Starts the embedded demo HAAPI server when the configuration names no upstream, and points the configuration at it.
enum EmbeddedUpstream {
    /// - Returns: The configuration with a `.haapi` upstream, and the demo server to shut down afterwards (if started).
    static func start(for configuration: GatewayConfiguration, logger: Logger) async throws -> (GatewayConfiguration, RunningDemoServer?) {
        guard case .demo(let settings) = configuration.upstream else { return (configuration, nil) }
        var demoLogger = logger
        demoLogger.logLevel = max(logger.logLevel, .warning)
        let publicURL = configuration.server.publicBaseURL
        let demo = DemoServerConfiguration.embedded(requireDPoPNonce: settings.requireDPoPNonce, strict: settings.strict, publicURL: publicURL)
        let server = try await DemoServer.start(configuration: demo, logger: demoLogger)
        var resolved = configuration
        let client = settings.clientConfiguration(
            issuer: server.issuerURL,
            clientID: DemoServer.clientID,
            clientSecret: DemoServer.clientSecret,
            redirectURI: DemoServer.redirectURI
        )
        resolved.upstream = .haapi(client)
        return (resolved, server)
    }
}
