import Logging

/// Which storage the gateway keeps its state in, for a configuration: the one storage choice (``Gateway``'s
/// `makeApplication` makes no other). ``memoryOnly`` is this module's; the PostgreSQL storage lives in `HAAPIGatewayPostgres`, whose
/// `bySessionsStore` follows `sessions.store`, so that the gateway's core never depends on the database driver.
public struct GatewayStorageChoice: Sendable {
    /// The storage for a configuration, its logger and the clock of lifetimes and windows.
    package let storage: @Sendable (GatewayConfiguration, Logger, @escaping @Sendable () -> ContinuousClock.Instant) throws -> any GatewayStorage

    /// - Parameter storage: Makes the storage for a configuration, or throws why it cannot.
    package init(
        storage: @escaping @Sendable (GatewayConfiguration, Logger, @escaping @Sendable () -> ContinuousClock.Instant) throws -> any GatewayStorage
    ) {
        self.storage = storage
    }

    /// Memory (``MemoryStorage``); a configuration with `sessions.store: postgres` is refused, naming the module that
    /// has that storage.
    public static let memoryOnly = GatewayStorageChoice { configuration, logger, now in
        guard case .memory = configuration.sessions.store else {
            throw GatewayError(
                .configuration,
                "\(ConfigurationKey.sessionsStore.path): postgres needs the PostgreSQL storage of HAAPIGatewayPostgres (GatewayStorageChoice.bySessionsStore)"
            )
        }
        return MemoryStorage(spoolFile: configuration.callbackDelivery.spoolFile, now: now, logger: logger)
    }
}
