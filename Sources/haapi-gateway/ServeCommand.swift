import ArgumentParser
import Foundation
import HAAPIDemoServer
import HAAPIGateway
import HAAPIGatewayPostgres
import Logging

/// `haapi-gateway serve` (the default): serves the sign-in pages, in front of the embedded demo server unless an
/// upstream is configured. Configuration comes from a YAML file, the `HAAPI_GATEWAY_…` environment and flags, flags
/// winning; any problem stops startup with every problem listed (exit 78).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the sign-in pages (with the embedded demo HAAPI server unless an upstream is configured).",
        discussion:
            "Configuration layers, later ones winning: built-in defaults, the YAML file (--config or $HAAPI_GATEWAY_CONFIG), HAAPI_GATEWAY_… environment variables (e.g. \(ConfigurationKey.upstreamClientSecret.environmentName)), then these flags. An invalid configuration stops startup with every problem listed and exit status 78. SIGHUP reloads the configuration and templates (an invalid one is refused and the running one stays); SIGTERM drains, then stops. A failure to start is one line on standard error (with \(ConfigurationKey.loggingFormat.path) json, a JSON object as every log line, and the \"open … in a browser\" line too). \(StartupFailure.exitStatusHelp)"
    )

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        // In JSON mode every line on standard error is a JSON object, a failure to start included.
        let configuration: GatewayConfiguration
        do {
            configuration = try options.flags.load()
        } catch {
            exitWith(
                error.description,
                status: error.exitStatus,
                logging: error.logging,
                metadata: ["problems": .array(error.problems.map { .string($0) })]
            )
        }
        let logger = configuration.logging.makeLogger(label: "haapi-gateway")
        for line in configuration.summary { logger.info("configuration", metadata: ["effective": "\(line)"]) }

        var demo: RunningDemoServer?
        do {
            let (resolved, started) = try await EmbeddedUpstream.start(for: configuration, logger: logger)
            demo = started
            var demoOutbox: (@Sendable () -> [UInt8])?
            if let started { demoOutbox = { started.outboxDocument() } }
            try await GatewayServing.run(
                configuration: configuration,
                resolved: resolved,
                flags: options.flags,
                demoOutbox: demoOutbox,
                storageChoice: .bySessionsStore,
                logger: logger
            ) { banner in FileHandle.standardOutput.write(Data(banner.utf8)) }
        } catch {
            await demo?.shutdown()
            exitStarting(error, listening: configuration.server.host, port: configuration.server.port, logging: configuration.logging)
        }
        await demo?.shutdown()
    }
}
