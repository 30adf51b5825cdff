import Foundation
import HAAPIGateway
import Logging
import ServiceLifecycle
import UnixSignals

/// On SIGHUP, loads the configuration again from the same file, environment and flags and applies it to the running
/// gateway. An invalid configuration is refused with every problem logged, and the running one stays.
struct ReloadOnHangupService: Service {
    let options: ConfigurationOptions
    let reloader: GatewayReloader
    let logger: Logger

    func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            let configuration: GatewayConfiguration
            do {
                configuration = try options.loadConfiguration()
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
