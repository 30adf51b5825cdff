import Foundation
import HAAPIGateway
import Logging
import ServiceLifecycle

extension HostProxy {
    /// Where `proxy` forwards (`--to`) and listens (`--listen`), or why not (status 78): a target or an address refused,
    /// or `--host` or `--port`, which set `login`'s local gateway, not the proxy.
    public static func place(
        to: String,
        listen: String,
        flags: ConfigurationFlags
    ) throws(HostTokenProblem) -> (target: ProxyTarget, address: ProxyListenAddress) {
        let target: ProxyTarget, address: ProxyListenAddress
        do {
            target = try ProxyTarget(to)
            address = try ProxyListenAddress(listen)
        } catch {
            throw HostTokenProblem(error.message, exitStatus: 78)
        }
        guard flags.host == nil, flags.port == nil else {
            throw HostTokenProblem(
                "--host and --port set login's local gateway; the proxy listens where --listen says (ADDRESS:PORT)",
                exitStatus: 78
            )
        }
        return (target, address)
    }

    /// The line `proxy` prints once it listens at `url`.
    public static func listeningLine(_ url: URL, target: ProxyTarget, tokenFile: String) -> String {
        "haapi-gateway proxy: \(url.absoluteString) forwards to \(target.origin)\(target.basePath) with the sign-in in \(tokenFile)\n"
    }

    /// Listens at `address` until SIGTERM or SIGINT, then lets the requests under way end within `stopSeconds` (a target
    /// that answers slowly, or streams for ever, does not hold the stop: the deadline runs from the signal, on a thread of
    /// its own), and shuts the proxy's client down.
    /// - Parameter write: Writes ``listeningLine(_:target:tokenFile:)`` once it listens (standard output).
    /// - Throws: What stops it from listening, after the client is shut down.
    public func serve(
        listening address: ProxyListenAddress,
        stopSeconds: Int,
        logger: Logger,
        write: @escaping @Sendable (String) -> Void
    ) async throws {
        let stopDeadline = StopDeadline(seconds: stopSeconds, logger: logger, limit: "--stop-seconds after the signal")
        let stopSignals = StopSignalWatch(stopDeadline)
        defer { withExtendedLifetime(stopSignals) {} }
        // The listener's own lines (where it listens) stay out: the address is printed once.
        var listenerLogger = logger
        listenerLogger.logLevel = .warning
        let (target, tokenFile) = (target, tokenFile)
        let application = application(listening: address, logger: listenerLogger) { url in
            write(Self.listeningLine(url, target: target, tokenFile: tokenFile))
        }
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: listenerLogger))
        do {
            try await group.run()
        } catch {
            await shutdown()
            throw error
        }
        await shutdown()
    }
}
