import Foundation
import Logging

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// One kind of ``GatewayStorage`` as the storage contract (``StorageContract``) runs it: a backend makes a fresh place for
/// one check, where storages of its kind keep their state. A new backend passes the contract by giving one of these and
/// a suite of thin wrappers that call each of ``StorageContract``'s checks with it (``MemoryStorageContractTests``, and
/// `PostgresStorageTests.Contract`).
protocol StorageContractBackend: Sendable {
    /// A place nothing has been kept in yet, with a clock of its own that the check moves.
    func makePlace() async throws -> any StorageContractPlace
    /// Whether its device store keeps a sign-in's outcome in the same change as the device's approval (its journal and
    /// its device authorizations share one database), or approves only and leaves the outcome to the dispatcher.
    var keepsOutcomeWithApproval: Bool { get }
}

/// Where the storages of one check keep their state (a spool file, a database), and the clock they read.
protocol StorageContractPlace: Sendable {
    /// The clock of lifetimes, windows and leases of every storage opened here; it moves only when the check moves it.
    var clock: TestClock { get }

    /// Runs `body` with a storage on this place, prepared (``GatewayStorage/prepare()``) and its services running, which
    /// stop when `body` returns. A second storage opened here is the same place after a restart of the gateway: it
    /// finds what the first kept beyond its process.
    func withStorage<Value: Sendable>(_ body: (any GatewayStorage) async throws -> Value) async throws -> Value
}

/// The memory storage (``MemoryStorage``) with a spool file (`callbacks.spoolFile`), so that what it keeps beyond its
/// process (callback deliveries, upstream facts) is there to check.
struct MemoryContractBackend: StorageContractBackend {
    struct Place: StorageContractPlace {
        let clock = TestClock()
        let spoolFile = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString).jsonl").path

        func withStorage<Value: Sendable>(_ body: (any GatewayStorage) async throws -> Value) async throws -> Value {
            let clock = clock
            let storage = MemoryStorage(spoolFile: spoolFile, now: { clock.instant }, logger: StorageContract.silent)
            try await storage.prepare()
            return try await body(storage)
        }
    }

    func makePlace() async throws -> any StorageContractPlace { Place() }
    var keepsOutcomeWithApproval: Bool { false }
}
