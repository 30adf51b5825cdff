import Foundation
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// What every ``GatewayStorage`` promises, whichever backend keeps the state: one check per behaviour, each taking the
/// backend (``StorageContractBackend``) and asking only through the protocol's stores. Each backend's suite runs every
/// check of ``checks`` (``MemoryStorageContractTests``, `PostgresStorageTests.Contract`); a new backend is written by
/// passing them.
///
/// Where the backends legitimately differ, a check asserts the promise they share only: a memory store never finds a
/// session busy (the session's actor serialises its requests) where a shared one does; a memory store keeps sessions in
/// its process only; a count may be up to a second old; an approval's outcome is kept with it only where the store and
/// the journal share a database (``DeviceApproval/outcomeKept``); a storage may keep no upstream facts (nil).
enum StorageContract {
    static let silent = Logger(label: "storage-contract", factory: { _ in SwiftLogNoOpLogHandler() })

    /// The lookup's case, for comparing.
    static func outcome(_ lookup: SessionLookup<SignInSession>) -> String {
        switch lookup {
        case .found: "found"
        case .absent: "absent"
        case .busy: "busy"
        case .unreadable: "unreadable"
        }
    }

    /// The checkout a lookup found; nil (recorded as an issue) otherwise.
    static func found(
        _ lookup: SessionLookup<SignInSession>,
        _ comment: Comment,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> SessionCheckout<SignInSession>? {
        guard case .found(let checkout) = lookup else {
            Issue.record("\(comment): \(outcome(lookup))", sourceLocation: sourceLocation)
            return nil
        }
        return checkout
    }

    /// Runs `body` with a fresh storage of `backend`'s kind and its clock.
    static func withStorage(
        _ backend: any StorageContractBackend,
        _ body: (any GatewayStorage, TestClock) async throws -> Void
    ) async throws {
        let place = try await backend.makePlace()
        try await place.withStorage { try await body($0, place.clock) }
    }

    // MARK: - Readiness

    /// A prepared storage serves: its readiness is nil (always ready) or answers ready.
    static func preparedStorageIsReady(_ backend: any StorageContractBackend) async throws {
        try await withStorage(backend) { storage, _ in
            if let readiness = storage.readiness {
                #expect(await readiness() == .ready)
            }
        }
    }

    // MARK: - New sign-ins per address

    /// The new-session budget admits `maximumNewSessionsPerAddress` starts of an address in its window and then says how
    /// long to wait, counting nothing; other addresses and starts without an address are not held back; the window
    /// slides by the storage's clock.
    static func newSessionBudgetPerAddress(_ backend: any StorageContractBackend) async throws {
        try await withStorage(backend) { storage, clock in
            let budget = storage.newSessionBudget(settings: .fixed(SessionSettings(maximumNewSessionsPerAddress: 3, newSessionWindowSeconds: 60)))
            for start in 1...3 {
                #expect(await budget.admit(address: "192.0.2.1") == nil, "start \(start) of 3")
            }
            let wait = await budget.admit(address: "192.0.2.1")
            #expect(wait.map { (1...60).contains($0) } == true, "the fourth waits for the window: \(String(describing: wait))")
            #expect(await budget.admit(address: "192.0.2.2") == nil, "another address has its own budget")
            for _ in 0..<5 { #expect(await budget.admit(address: nil) == nil, "without an address every start is allowed") }
            clock.advance(.seconds(30))
            #expect(await budget.admit(address: "192.0.2.1") != nil, "refused starts are not counted, the counted ones not yet out")
            clock.advance(.seconds(31))
            #expect(await budget.admit(address: "192.0.2.1") == nil, "the window has passed")
            let off = storage.newSessionBudget(settings: .fixed(SessionSettings(maximumNewSessionsPerAddress: 0)))
            for _ in 0..<5 { #expect(await off.admit(address: "192.0.2.3") == nil, "the bound off (0)") }
        }
    }

    // MARK: - Start links

    /// A start link's signature is used once: the first use wins, every later one is refused; others are unaffected.
    static func startLinkIsUsedOnce(_ backend: any StorageContractBackend) async throws {
        try await withStorage(backend) { storage, clock in
            let ledger = storage.startLinkLedger()
            let now = clock.date
            let expiry = now.addingTimeInterval(300)
            #expect(try await ledger.use(signature: "signature-a", expiry: expiry, now: now), "the first use")
            #expect(try await ledger.use(signature: "signature-a", expiry: expiry, now: now) == false, "used again")
            #expect(try await ledger.use(signature: "signature-b", expiry: expiry, now: now), "another link")
            let later = now.addingTimeInterval(120)
            #expect(try await ledger.use(signature: "signature-a", expiry: expiry, now: later) == false, "still used before it expires")
            // Two uses at once: one wins.
            async let first = ledger.use(signature: "signature-c", expiry: expiry, now: now)
            async let second = ledger.use(signature: "signature-c", expiry: expiry, now: now)
            let answers = try await [first, second]
            #expect(answers.sorted { !$0 && $1 } == [false, true], "\(answers)")
        }
    }

    // MARK: - Wrong user codes

    /// Wrong user codes are bounded per address (`maximumWrongCodesPerAddress`) and for all addresses together
    /// (`maximumWrongCodes`), the latter holding back only addresses that guessed wrong themselves (and entries without
    /// an address); each within the sliding window.
    static func wrongUserCodesAreBounded(_ backend: any StorageContractBackend) async throws {
        try await withStorage(backend) { storage, clock in
            var settings = DeviceSettings()
            settings.maximumWrongCodesPerAddress = 3
            settings.maximumWrongCodes = 5
            settings.wrongCodeWindowSeconds = 60
            let limiter = storage.userCodeAttempts(settings: .fixed(settings))
            for _ in 0..<2 { try await limiter.recordWrongCode(address: "192.0.2.1") }
            #expect(try await limiter.retryAfter(address: "192.0.2.1") == nil, "2 of 3")
            try await limiter.recordWrongCode(address: "192.0.2.1")
            let wait = try await limiter.retryAfter(address: "192.0.2.1")
            #expect(wait.map { (1...60).contains($0) } == true, "3 of 3: \(String(describing: wait))")
            #expect(try await limiter.retryAfter(address: "192.0.2.2") == nil, "another address")
            clock.advance(.seconds(10))
            for _ in 0..<2 { try await limiter.recordWrongCode(address: "192.0.2.2") }
            #expect(try await limiter.retryAfter(address: "192.0.2.2") != nil, "5 wrong codes of everyone: a guesser waits")
            #expect(try await limiter.retryAfter(address: "192.0.2.3") == nil, "one that never guessed wrong goes on")
            #expect(try await limiter.retryAfter(address: nil) != nil, "without an address every entry is a guesser's")
            clock.advance(.seconds(51))
            #expect(try await limiter.retryAfter(address: "192.0.2.1") == nil, "the first address's codes left the window")
            #expect(try await limiter.retryAfter(address: "192.0.2.2") == nil, "everyone's are 2 now")
            clock.advance(.seconds(10))
            #expect(try await limiter.retryAfter(address: nil) == nil)
        }
    }
}
