import ArgumentParser
import Foundation
import HAAPIDemoServer
import HAAPIGateway
import Hummingbird

/// `haapi-gateway demo-server`: runs the embedded demo HAAPI server on its own.
struct DemoServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo-server",
        abstract: "Run the demo HAAPI server (demo users, client demo-gateway/demo-secret). Not an identity provider.",
        discussion: "A failure to start is one line on standard error. \(StartupFailure.exitStatusHelp)"
    )

    @OptionGroup var options: DemoServerOptions

    func validate() throws {
        do { _ = try options.arguments.configuration() } catch { throw ValidationError(error.message) }
    }

    func run() async throws {
        let arguments = options.arguments
        let configuration = try arguments.configuration()
        // The gateway's text lines: a path or a value a client sent is logged with its control characters escaped.
        let logger = LoggingSettings(level: (try? arguments.level()) ?? .info).makeLogger(label: "haapi-demo-server")
        let application = try DemoServer.makeApplication(configuration: configuration, logger: logger) { url, _ in
            let banner = DemoServerBanner.text(
                url: url,
                configuration: configuration,
                strict: arguments.strict,
                gatewaySetting: ConfigurationKey.upstreamBaseURL.path
            )
            FileHandle.standardOutput.write(Data(banner.utf8))
        }
        do {
            try await TracedService.run(application, tracing: TracingSettings(serviceName: "haapi-demo-server"), logger: logger)
        } catch {
            exitStarting(error, listening: arguments.host, port: arguments.port)
        }
    }
}
