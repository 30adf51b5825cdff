import Foundation
import HAAPI
import HAAPIGateway
import Logging
import ServiceLifecycle

/// `login` without a central gateway: runs this gateway for exactly one sign-in. Only a single-use link (valid for
/// ``timeoutSeconds``) starts it, and only after the person confirms that the code the page shows is the one the
/// terminal shows (RFC 8628 §5.4); the first outcome ends the gateway.
public struct LocalLogin: Sendable {
    /// The gateway's configuration, with a `.haapi` upstream (the executable starts the demo upstream).
    public let configuration: GatewayConfiguration
    /// How long the link works and the gateway waits.
    public let timeoutSeconds: Int
    /// This host's name, shown beside the code.
    public let hostName: String
    /// Where what the gateway learns about its upstream is kept between runs (whether it issues token-bound authorization
    /// codes): ``TokenFile/upstreamFactsPath(besideTokenFile:)``. Nil: learned again by every run.
    public let upstreamFactsFile: String?
    /// Where the gateway keeps its state (``GatewayStorageChoice``).
    public let storageChoice: GatewayStorageChoice

    /// Creates a one-sign-in run.
    /// - Parameters:
    ///   - configuration: The gateway's configuration (a `.haapi` upstream).
    ///   - timeoutSeconds: How long the link works.
    ///   - hostName: This host's name for the confirmation page.
    ///   - upstreamFactsFile: Where what the gateway learns about its upstream is kept between runs.
    ///   - storageChoice: Where the gateway keeps its state (memory by default).
    public init(
        configuration: GatewayConfiguration,
        timeoutSeconds: Int,
        hostName: String = ProcessInfo.processInfo.hostName,
        upstreamFactsFile: String? = nil,
        storageChoice: GatewayStorageChoice = .memoryOnly
    ) {
        self.configuration = configuration
        self.timeoutSeconds = timeoutSeconds
        self.hostName = hostName
        self.upstreamFactsFile = upstreamFactsFile
        self.storageChoice = storageChoice
    }

    /// Serves the one sign-in and waits for its outcome, at most ``timeoutSeconds``. It takes the process's SIGTERM and
    /// SIGINT: either stops it (``LoginOutcome/interrupted``), and a stop that takes longer than `server.stopSeconds`
    /// ends the process with exit 70 (``StopDeadline``), as does its own stop after the outcome. `keep` has the outcome
    /// before any of that can happen: a person who signed in keeps the tokens even when the stop is cut short.
    /// - Parameters:
    ///   - logger: The gateway's logger.
    ///   - announce: Called once the gateway listens, with the link to open (a wildcard address replaced by one a phone
    ///     can reach, ``NetworkAddress/reachable(_:)``) and the confirmation code.
    ///   - keep: Called with the sign-in's outcome as soon as there is one, before the person's last page is waited for
    ///     and before the stop (and its deadline) starts: where the tokens are written.
    /// - Returns: How the sign-in ended.
    /// - Throws: Why the gateway could not start (``StartupFailure`` says it as a line and an exit status).
    public func run(
        logger: Logger,
        announce: @escaping @Sendable (_ link: String, _ code: String) -> Void,
        keep: @Sendable (LoginOutcome) async -> Void = { _ in }
    ) async throws -> LoginOutcome {
        var configuration = configuration
        let ticket = PairingTicket.make(lifetime: .seconds(timeoutSeconds))
        let (finalPages, finalPageSink) = AsyncStream.makeStream(of: Void.self)
        configuration.pairing = PairingSettings(ticket: ticket, hostName: hostName) { finalPageSink.yield() }
        let (outcomes, outcomeSink) = AsyncStream.makeStream(of: CompletionOutcome.self)
        // SIGTERM, SIGINT or the stop after the outcome: the gateway stops within server.stopSeconds, or the process exits
        // naming what had not ended (exit 70), whatever its tasks do.
        let stopDeadline = StopDeadline(seconds: configuration.server.stopSeconds, logger: logger)
        let stopSignals = StopSignalWatch(stopDeadline)
        defer { withExtendedLifetime(stopSignals) {} }
        let application = try await Gateway.makeApplication(
            configuration: configuration,
            logger: logger,
            onRunning: { url in
                let base = NetworkAddress.reachable(url).absoluteString
                announce((base.hasSuffix("/") ? String(base.dropLast()) : base) + ticket.path, ticket.code)
            },
            onOutcome: { outcome in outcomeSink.yield(outcome) },
            stopDeadline: stopDeadline,
            upstreamFactsFile: upstreamFactsFile,
            storageChoice: storageChoice
        )
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let runner = Task {
            defer { outcomeSink.finish() }
            try await group.run()
        }
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        let timer = Task {
            try await Task.sleep(until: deadline, clock: .continuous)
            outcomeSink.finish()
        }
        var outcome: CompletionOutcome?
        for await first in outcomes {
            outcome = first
            break
        }
        timer.cancel()
        // The outcome is kept first: nothing after this (the last page, the stop, its deadline's exit 70, a signal) can
        // lose the tokens of a person who signed in.
        if let outcome { await keep(LoginOutcome(outcome)) }
        // The person's browser gets the page saying how it ended before the gateway stops: the stop waits until that page
        // is made (a slow phone, a loaded host), at most ``finalPageWait``; a stop answers the request under way.
        if outcome != nil { await Self.first(of: finalPages, within: Self.finalPageWait) }
        finalPageSink.finish()
        stopDeadline.start()
        await group.triggerGracefulShutdown()
        let stopped = await runner.result
        if let outcome { return LoginOutcome(outcome) }
        // The listener could not start (its port taken, say): that, not "interrupted", is what went wrong.
        if case .failure(let error) = stopped { throw error }
        guard ContinuousClock.now >= deadline else { return .interrupted }
        return .timedOut("no sign-in within \(timeoutSeconds) s; run the command again for a new link")
    }

    /// How long, after the outcome, the gateway waits for the person's browser to be given its last page.
    static let finalPageWait = Duration.seconds(30)

    /// Returns when `stream` yields or ends, or after `limit`.
    private static func first(of stream: AsyncStream<Void>, within limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for await _ in stream { return }
            }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }
}
