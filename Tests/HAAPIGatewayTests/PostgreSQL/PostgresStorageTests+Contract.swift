import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

/// PostgreSQL as the storage contract runs it: each place a fresh database on the suite's server, with its clock
/// (``StorageTestDatabase``), and a key of its own; each storage opened there a ``PostgresStorage`` reading that clock,
/// its database running and its tables prepared, as the gateway's.
struct PostgresContractBackend: StorageContractBackend {
    struct Place: StorageContractPlace {
        let database: StorageTestDatabase
        let key = SessionEncryptionKey.random()

        var clock: TestClock { database.clock }

        func withStorage<Value: Sendable>(_ body: (any GatewayStorage) async throws -> Value) async throws -> Value {
            let clock = clock
            let settings = PostgresStoreSettings(url: try database.url(), encryptionKeys: [key])
            let storage = try PostgresStorage(settings: settings, spoolFile: nil, clock: .reading { clock.date }, logger: StorageContract.silent)
            let running = Task { try await storage.sessions.database.run() }
            do {
                try await storage.sessions.database.prepareSchema()
                try await storage.prepare()
                let value = try await body(storage)
                await StorageTestDatabase.end(running)
                return value
            } catch {
                await StorageTestDatabase.end(running)
                throw error
            }
        }
    }

    func makePlace() async throws -> any StorageContractPlace { Place(database: try await StorageTestDatabase.make()) }
}

extension PostgresStorageTests {
    /// The storage contract (``StorageContract``) run against PostgreSQL (``PostgresContractBackend``).
    @Suite("The storage contract: PostgreSQL")
    struct Contract {
        let backend = PostgresContractBackend()

        @Test("a prepared storage is ready")
        func preparedStorageIsReady() async throws { try await StorageContract.preparedStorageIsReady(backend) }

        @Test("sessions: stored, checked out for every use, what a request did kept at check-in, removed")
        func sessionsAreStoredCheckedOutAndSaved() async throws { try await StorageContract.sessionsAreStoredCheckedOutAndSaved(backend) }

        @Test("sessions: a rotation moves the sign-in to a fresh id; a removed one is not rotated")
        func sessionsRotateToAFreshID() async throws { try await StorageContract.sessionsRotateToAFreshID(backend) }

        @Test("sessions: gone when idle past idleTimeoutSeconds, kept alive by use; idleDuration by the clock")
        func sessionsExpireWhenIdle() async throws { try await StorageContract.sessionsExpireWhenIdle(backend) }

        @Test("sessions: gone past absoluteTimeoutSeconds however used")
        func sessionsExpireAtTheirAbsoluteLifetime() async throws { try await StorageContract.sessionsExpireAtTheirAbsoluteLifetime(backend) }

        @Test("sessions: at maximumSessions an untouched one is pushed out, a new one refused when all are in use, an expired one makes room")
        func sessionsAreCapped() async throws { try await StorageContract.sessionsAreCapped(backend) }

        @Test("the new-session budget per address and its window")
        func newSessionBudgetPerAddress() async throws { try await StorageContract.newSessionBudgetPerAddress(backend) }

        @Test("a start link's signature is used once")
        func startLinkIsUsedOnce() async throws { try await StorageContract.startLinkIsUsedOnce(backend) }

        @Test("wrong user codes: per-address and global bounds within the window")
        func wrongUserCodesAreBounded() async throws { try await StorageContract.wrongUserCodesAreBounded(backend) }

        @Test("devices: created, entered, confirmed once, approved, tokens handed to one poll, then spent")
        func deviceIsApprovedAndHandedTokensOnce() async throws { try await StorageContract.deviceIsApprovedAndHandedTokensOnce(backend) }

        @Test("devices: a failed or lost hand-over gives the tokens to a later poll")
        func deviceHandOverIsAtLeastOnce() async throws { try await StorageContract.deviceHandOverIsAtLeastOnce(backend) }

        @Test("devices: slow_down and invalid_grant")
        func devicePollsArePaced() async throws { try await StorageContract.devicePollsArePaced(backend) }

        @Test("devices: expired_token past the code's lifetime, whatever happened")
        func deviceCodesExpire() async throws { try await StorageContract.deviceCodesExpire(backend) }

        @Test("devices: entries per code, refusal, denial, reopen, the bound on waiting codes")
        func deviceEntriesAndDecisions() async throws { try await StorageContract.deviceEntriesAndDecisions(backend) }

        @Test("devices: issued access tokens noted per client until they expire")
        func deviceIssuedTokensAreNoted() async throws { try await StorageContract.deviceIssuedTokensAreNoted(backend) }

        @Test("the callback journal: a pending delivery survives a restart, a taken one is not delivered again")
        func pendingDeliveriesSurviveARestart() async throws { try await StorageContract.pendingDeliveriesSurviveARestart(backend) }

        @Test("the device hand-over: an approval's outcome kept with it is delivered after a restart; handed, it is delivered once")
        func deviceApprovalKeepsItsOutcome() async throws { try await StorageContract.deviceApprovalKeepsItsOutcome(backend) }

        @Test("upstream facts are kept beyond the process, or none are kept (nil)")
        func upstreamFactsAreKept() async throws { try await StorageContract.upstreamFactsAreKept(backend) }
    }
}
