import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIGatewayPostgres
import Logging

/// Times the PostgreSQL session store's own statements with no gateway around them: the claim, the save (which releases
/// the claim) and the page's load that one step of a sign-in makes, through the gateway's storage layer
/// (`PostgresSessionStorage`: the same prepared statements, pools and sealing), one after the other on one row. What a
/// step through a PostgreSQL-store gateway adds beyond these is the gateway's own work around them. The process's CPU
/// time (all its threads) is read around each statement too: what the statements alone cost a gateway's CPU.
struct StoreRoundTripsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store-round-trips",
        abstract: "Time a step's claim, save and load through the PostgreSQL storage layer alone; JSON."
    )

    @Option(help: "A file holding the database's postgres:// URL (loopback).")
    var postgresURLFile: String

    @Option(help: "Measured rounds (each one claim, one save and one load).")
    var rounds = 1000

    @Option(help: "Unmeasured rounds first.")
    var warmupRounds = 100

    @Option(help: "The size of the stored document in bytes (a sign-in's is about 1 500 before sealing).")
    var documentBytes = 1500

    @Option(help: "Where to write the JSON.")
    var output: String

    @Flag(help: "Sign-in rows wait for the disk at each commit (\(ConfigurationKey.sessionsSynchronousCommit.path): true).")
    var synchronousCommit = false

    func validate() throws {
        guard rounds > 0, warmupRounds >= 0, documentBytes > 0 else {
            throw ValidationError("--rounds and --document-bytes must be positive and --warmup-rounds not negative")
        }
    }

    func run() async throws {
        guard let text = FileManager.default.contents(atPath: postgresURLFile).map({ String(decoding: $0, as: UTF8.self) }) else {
            throw DriverError("cannot read \(postgresURLFile)")
        }
        let url: PostgresURL
        switch PostgresURL.parse(text) {
        case .success(let parsed): url = parsed
        case .failure(let refusal): throw DriverError("the PostgreSQL URL \(refusal.message)")
        }
        guard let cipher = SessionCipher(keys: [SessionEncryptionKey.random()]) else { throw DriverError("no session key") }
        var options = PostgresDatabase.Options()
        options.synchronousCommit = synchronousCommit
        let database = PostgresDatabase(
            url: url,
            cipher: cipher,
            options: options,
            logger: Logger(label: "store-round-trips", factory: { _ in SwiftLogNoOpLogHandler() })
        )
        let storage = PostgresSessionStorage(database: database)
        let pools = Task { try await database.run() }
        defer { pools.cancel() }
        try await database.prepareSchema()
        let document = (0..<documentBytes).map { _ in UInt8.random(in: 0...255) }
        let id = "store-round-trips-\(UUID().uuidString)"
        var version = try await storage.insert(
            id: id,
            document: document,
            lifetimes: SessionLifetimes(absolute: .seconds(3600), idle: .seconds(3600)),
            address: nil
        )
        var timings = StoreRoundTrips()
        let clock = ContinuousClock()
        for round in 0..<(warmupRounds + rounds) {
            let claim = "claim-\(round)"
            let (start, startCPU) = (clock.now, ProcessCPUTime.now())
            guard case .claimedCurrent(version) = try await storage.claim(id: id, claim: claim, lease: .seconds(10), knownVersion: version) else {
                throw DriverError("the claim of round \(round) was not granted at version \(version)")
            }
            let (claimed, claimedCPU) = (clock.now, ProcessCPUTime.now())
            guard case .saved(let saved) = try await storage.save(id: id, document: document, expectedVersion: version, claim: claim) else {
                throw DriverError("the save of round \(round) was refused")
            }
            version = saved
            let (savedAt, savedCPU) = (clock.now, ProcessCPUTime.now())
            guard case .current(version) = try await storage.load(id: id, knownVersion: version) else {
                throw DriverError("the load of round \(round) did not find version \(version)")
            }
            let (loaded, loadedCPU) = (clock.now, ProcessCPUTime.now())
            guard round >= warmupRounds else { continue }
            timings.append(claim: claimed - start, save: savedAt - claimed, load: loaded - savedAt)
            timings.appendCPU(claim: claimedCPU - startCPU, save: savedCPU - claimedCPU, load: loadedCPU - savedCPU)
        }
        try? await storage.remove(id: id)
        try timings.write(to: URL(fileURLWithPath: output))
    }
}
