import Foundation
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

/// The storage seam holds: the gateway's core neither imports nor depends on the PostgreSQL driver, only
/// `HAAPIGatewayPostgres` does, and the storage is chosen once, by `sessions.store`.
@Suite("The storage seam")
struct StorageSeamTests {
    /// The dependencies Package.swift gives `target`: the text of its `.target(name: "…", dependencies: [ … ])`.
    static func dependencies(of target: String) throws -> String {
        let manifest = try String(contentsOf: Repository.root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let start = try #require(
            manifest.range(of: ".target(\n            name: \"\(target)\",\n            dependencies: ["),
            "the target \(target)"
        )
        let end = try #require(manifest.range(of: "\n            ],", range: start.upperBound..<manifest.endIndex))
        return String(manifest[start.upperBound..<end.lowerBound])
    }

    @Test("the core target neither imports nor names PostgresNIO, and only HAAPIGatewayPostgres depends on it")
    func theCoreHasNoDatabaseDriver() throws {
        let core = try Repository.swiftSources(under: "Sources/HAAPIGateway")
        #expect(core.count > 100)
        let naming = core.filter { $0.text.contains("PostgresNIO") }.map(\.path)
        #expect(naming.isEmpty, "\(naming)")
        #expect(!(try Self.dependencies(of: "HAAPIGateway")).contains("postgres-nio"))
        #expect(try Self.dependencies(of: "HAAPIGatewayPostgres").contains("postgres-nio"))
        let postgres = try Repository.swiftSources(under: "Sources/HAAPIGatewayPostgres")
        #expect(postgres.contains { $0.text.contains("import PostgresNIO") })
        // Nothing of the storage is public but the choice a library user passes: its rows, statements and stores are
        // the package's own (the executable and the benchmark driver are in the package).
        let publicDeclarations = postgres.flatMap { file in
            file.text.split(separator: "\n").filter { $0.contains("public ") && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }
        }
        #expect(
            publicDeclarations.map { $0.trimmingCharacters(in: .whitespaces) } == [
                "public static let bySessionsStore = GatewayStorageChoice { configuration, logger, now in"
            ]
        )
    }

    @Test("the composition root makes no storage choice of its own: it names no store implementation")
    func theCompositionRootTakesOneStorage() throws {
        let source = try String(contentsOf: Repository.root.appendingPathComponent("Sources/HAAPIGateway/Gateway.swift"), encoding: .utf8)
        // Its code, not its documentation, which may name where the choices are.
        let root = source.split(separator: "\n").filter { !$0.trimmingCharacters(in: .whitespaces).hasPrefix("//") }.joined(separator: "\n")
        for implementation in [
            "MemorySessionStore", "NewSessionLimiter(", "MemoryDeviceAuthorizations", "MemoryUserCodeAttemptLimiter", "MemoryStartLinkLedger",
            "Postgres", "SpoolJournal", "UpstreamFactFile.besideSpool",
        ] {
            #expect(!root.contains(implementation), "Gateway.swift names \(implementation)")
        }
    }

    @Test("memoryOnly refuses sessions.store: postgres naming the module that has it; bySessionsStore follows sessions.store")
    func theChoice() throws {
        let logger = Logger(label: "storage-seam")
        var configuration = GatewayConfiguration()
        #expect(try GatewayStorageChoice.memoryOnly.storage(configuration, logger, { .now }) is MemoryStorage)
        #expect(try GatewayStorageChoice.bySessionsStore.storage(configuration, logger, { .now }) is MemoryStorage)
        let key = try #require(SessionEncryptionKey(base64: Data(repeating: 7, count: 32).base64EncodedString()))
        let url = try PostgresURL.parse("postgres://gateway@127.0.0.1:5432/gateway").get()
        configuration.sessions.store = .postgres(PostgresStoreSettings(url: url, encryptionKeys: [key]))
        #expect(try GatewayStorageChoice.bySessionsStore.storage(configuration, logger, { .now }) is PostgresStorage)
        #expect {
            try GatewayStorageChoice.memoryOnly.storage(configuration, logger, { .now })
        } throws: { error in
            (error as? GatewayError)?.message.contains("HAAPIGatewayPostgres") == true
        }
    }
}

/// The host tools' seam holds: the gateway's core neither imports nor depends on `HAAPIHostTools`, the tools a host runs
/// (`login`, `keep`, `logout`, `token`, the credential helpers, `proxy`); they depend on the core, never the other way.
@Suite("The host tools' seam")
struct HostToolsSeamTests {
    @Test("the core target neither imports nor depends on HAAPIHostTools, which depends on it")
    func theCoreHasNoHostTools() throws {
        let core = try Repository.swiftSources(under: "Sources/HAAPIGateway")
        #expect(core.count > 100)
        let importing = core.filter { $0.text.contains(/import\s+(\w+\s+)?HAAPIHostTools\b/) }.map(\.path)
        #expect(importing.isEmpty, "\(importing)")
        #expect(!(try StorageSeamTests.dependencies(of: "HAAPIGateway")).contains("HAAPIHostTools"))
        #expect(try StorageSeamTests.dependencies(of: "HAAPIHostTools").contains("\"HAAPIGateway\""))
        let tools = try Repository.swiftSources(under: "Sources/HAAPIHostTools")
        #expect(tools.contains { $0.text.contains("import HAAPIGateway") })
    }
}
