import Foundation
import HAAPI
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
        var demoConfiguration = DemoServerConfiguration(port: 0, requireDPoPNonce: settings.requireDPoPNonce)
        if settings.strict { demoConfiguration.makeStrict() }
        if let publicURL = configuration.server.publicBaseURL { demoConfiguration.usePasskeys(for: publicURL) }
        let server = try await DemoServer.start(configuration: demoConfiguration, logger: demoLogger)
        var resolved = configuration
        resolved.upstream = .haapi(
            HAAPIClientConfiguration(
                baseURL: server.issuerURL,
                clientID: DemoServer.clientID,
                clientAuthentication: .secretBasic(DemoServer.clientSecret),
                redirectURI: DemoServer.redirectURI,
                scopes: settings.scopes,
                connectTimeout: .seconds(settings.timeoutSeconds),
                requestTimeout: .seconds(settings.timeoutSeconds)
            )
        )
        return (resolved, server)
    }
}
