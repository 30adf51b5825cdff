import Foundation
import Logging
import ServiceLifecycle
import UnixSignals

/// On SIGHUP, loads the configuration again from the same file, environment and flags and applies it to the running
/// gateway. An invalid configuration is refused with every problem logged, and the running one stays. Printed (a
/// service group names its services so in debug lines), its flags show a secret's value redacted.
public struct ReloadOnHangupService: Service {
    /// The file and flags the configuration is loaded from again.
    let flags: ConfigurationFlags
    let reloader: GatewayReloader
    let logger: Logger

    /// - Parameters:
    ///   - flags: The file and flags the configuration is loaded from again.
    ///   - reloader: Applies a configuration to the running gateway.
    public init(flags: ConfigurationFlags, reloader: GatewayReloader, logger: Logger) {
        self.flags = flags
        self.reloader = reloader
        self.logger = logger
    }

    public func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            let configuration: GatewayConfiguration
            do {
                configuration = try flags.load()
            } catch {
                for problem in error.problems {
                    logger.error("reload refused; the running configuration stays", metadata: ["problem": "\(problem)"])
                }
                continue
            }
            let outcome = await reloader.reload(configuration)
            if outcome.applied {
                logger.notice("reload applied", metadata: ["needsRestart": "\(outcome.needsRestart.joined(separator: ","))"])
            }
        }
    }
}
