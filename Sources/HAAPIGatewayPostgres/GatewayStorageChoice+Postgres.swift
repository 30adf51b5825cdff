import HAAPIGateway

extension GatewayStorageChoice {
    /// By `sessions.store`: in memory (``MemoryStorage``), or in PostgreSQL (``PostgresStorage``), shared by replicas.
    public static let bySessionsStore = GatewayStorageChoice { configuration, logger, now in
        switch configuration.sessions.store {
        case .memory: try GatewayStorageChoice.memoryOnly.storage(configuration, logger, now)
        case .postgres(let settings):
            try PostgresStorage(settings: settings, spoolFile: configuration.callbackDelivery.spoolFile, logger: logger)
        }
    }
}
