import ArgumentParser
import Foundation
import HAAPI
import HAAPIDemoServer
import HAAPIGateway
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
            HAAPI_GATEWAY_… environment variables (e.g. HAAPI_GATEWAY_UPSTREAM_CLIENT_SECRET), then these flags. \
            An invalid configuration stops startup with every problem listed and exit status 78. SIGHUP reloads the \
            configuration and templates (an invalid one is refused and the running one stays); SIGTERM drains, then stops. \
            A failure to start is one line on standard error. \(StartupFailure.exitStatusHelp)
            """
    )

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        let configuration = options.loadConfigurationOrExit()
        let logger = configuration.logging.makeLogger(label: "haapi-gateway")
        for line in configuration.summary { logger.info("configuration", metadata: ["effective": "\(line)"]) }

        let (resolved, demo) = try await EmbeddedUpstream.start(for: configuration, logger: logger)
        do {
            let isDemo = demo != nil
            var demoOutbox: (@Sendable () -> [UInt8])?
            if let demo { demoOutbox = { demo.outboxDocument() } }
            let discardsTokens = configuration.callbacks.isEmpty
            let drain = GatewayDrain()
            let reloader = GatewayReloader()
            let application = try await Gateway.makeApplication(
                configuration: resolved,
                logger: logger,
                onRunning: { url in
                    var banner = "HAAPI gateway: open \(url.absoluteString)/ in a browser\n"
                    if isDemo {
                        banner += "Embedded demo upstream; users demo/demo, otp/otp, sms/sms, poll/poll, consent/consent\n"
                        banner += "The demo's one-time codes and approval links: \(url.absoluteString)/demo/outbox\n"
                    }
                    FileHandle.standardOutput.write(Data(banner.utf8))
                    if discardsTokens {
                        logger.warning(
                            "no callback is configured, so the tokens of each sign-in are discarded; add --callback file:PATH (or callbacks.sinks)"
                        )
                    }
                },
                drain: drain,
                reloader: reloader,
                demoOutbox: demoOutbox
            )
            // The drain service comes after the application, so SIGTERM reaches it first: readiness goes down, new
            // sign-ins are refused, and only after server.drainSeconds does the listener stop.
            let group = ServiceGroup(
                configuration: .init(
                    services: [
                        ReloadOnHangupService(options: options, reloader: reloader, logger: logger), application,
                        GatewayDrainService(drain: drain, seconds: configuration.server.drainSeconds, logger: logger),
                    ],
                    gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: logger
                )
            )
            try await group.run()
        } catch {
            await demo?.shutdown()
            exitStarting(error, listening: configuration.server.host, port: configuration.server.port)
        }
        await demo?.shutdown()
    }
}
