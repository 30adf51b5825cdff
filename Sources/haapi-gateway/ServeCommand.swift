import ArgumentParser
import Foundation
import HAAPI
import HAAPIDemoServer
import HAAPIGateway
import HAAPIGatewayPostgres
import Hummingbird
import Logging
import ServiceLifecycle

/// `haapi-gateway serve` (the default): serves the sign-in pages, in front of the embedded demo server unless an
/// upstream is configured. Configuration comes from a YAML file, the `HAAPI_GATEWAY_…` environment and flags, flags
/// winning; any problem stops startup with every problem listed (exit 78).
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the sign-in pages (with the embedded demo HAAPI server unless an upstream is configured).",
        discussion: """
            Configuration layers, later ones winning: built-in defaults, the YAML file (--config or $HAAPI_GATEWAY_CONFIG), \
            HAAPI_GATEWAY_… environment variables (e.g. \(ConfigurationKey.upstreamClientSecret.environmentName)), then these flags. \
            An invalid configuration stops startup with every problem listed and exit status 78. SIGHUP reloads the \
            configuration and templates (an invalid one is refused and the running one stays); SIGTERM drains, then stops. \
            A failure to start is one line on standard error (with \(ConfigurationKey.loggingFormat.path) json, a JSON object as every log line, \
            and the "open … in a browser" line too). \(StartupFailure.exitStatusHelp)
            """
    )

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        // In JSON mode every line on standard error is a JSON object, a failure to start included.
        let configuration: GatewayConfiguration
        do {
            configuration = try options.loadConfiguration()
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
            let embeddedDemo: DemoUpstreamSettings? = if case .demo(let settings) = configuration.upstream { settings } else { nil }
            var demoOutbox: (@Sendable () -> [UInt8])?
            if let started { demoOutbox = { started.outboxDocument() } }
            let discardsTokens = configuration.callbacks.isEmpty
            let logging = configuration.logging
            let drain = GatewayDrain()
            let reloader = GatewayReloader()
            let stopDeadline = StopDeadline(seconds: configuration.server.stopSeconds, logger: logger)
            // The deadline runs from the signal (drain and stop), on a thread of its own, as login's does.
            let stopSignals = StopSignalWatch(stopDeadline, allowing: .seconds(configuration.server.drainSeconds))
            defer { withExtendedLifetime(stopSignals) {} }
            let application = try await Gateway.makeApplication(
                configuration: resolved,
                logger: logger,
                onRunning: { url in
                    Self.announce(url, embeddedDemo: embeddedDemo != nil, logging: logging, logger: logger)
                    if discardsTokens {
                        logger.warning(
                            """
                            no callback is configured, so the tokens of each sign-in are discarded; add --callback file:PATH (or \
                            \(ConfigurationKey.callbacksSinks.path))
                            """
                        )
                    }
                },
                drain: drain,
                reloader: reloader,
                stopDeadline: stopDeadline,
                embeddedDemo: embeddedDemo,
                demoOutbox: demoOutbox,
                storageChoice: .bySessionsStore
            )
            // The drain service comes after the application, so SIGTERM reaches it first: readiness goes down, new
            // sign-ins are refused, and only after server.drainSeconds does the listener stop.
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        ReloadOnHangupService(options: options, reloader: reloader, logger: logger), application,
                        GatewayDrainService(
                            drain: drain,
                            seconds: configuration.server.drainSeconds,
                            stopDeadline: stopDeadline,
                            logger: logger
                        ),
                    ],
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger
                )
            )
            try await group.run()
        } catch {
            await demo?.shutdown()
            exitStarting(error, listening: configuration.server.host, port: configuration.server.port, logging: configuration.logging)
        }
        await demo?.shutdown()
    }

    /// Where to open the gateway: a plain banner on standard output for people (`logging.format: text`), or in JSON mode
    /// a log line (`url`, and `demoUsers` with the embedded demo upstream), so that standard output carries no plain text
    /// beside a log collector's JSON.
    private static func announce(_ url: URL, embeddedDemo: Bool, logging: LoggingSettings, logger: Logger) {
        let users = "demo/demo, otp/otp, sms/sms, poll/poll, consent/consent"
        guard logging.format == .text else {
            var metadata: Logger.Metadata = ["url": "\(url.absoluteString)/"]
            if embeddedDemo {
                metadata["demoUsers"] = "\(users)"
                metadata["demoOutbox"] = "\(url.absoluteString)/demo/outbox"
            }
            logger.notice("HAAPI gateway: open \(url.absoluteString)/ in a browser", metadata: metadata)
            return
        }
        var banner = "HAAPI gateway: open \(url.absoluteString)/ in a browser\n"
        if embeddedDemo {
            banner += "Embedded demo upstream; users \(users)\n"
            banner += "The demo's one-time codes and approval links: \(url.absoluteString)/demo/outbox\n"
        }
        FileHandle.standardOutput.write(Data(banner.utf8))
    }
}
