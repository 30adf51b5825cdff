import Foundation
import Testing

@testable import GatewayTestSupport

/// Each backend's suite of the storage contract calls every check, so that a check added to ``StorageContract`` is not
/// left out of one of them.
@Suite("The storage contract's suites")
struct StorageContractCoverageTests {
    @Test("every check of StorageContract is called by the memory suite and by the PostgreSQL suite")
    func everyBackendRunsEveryCheck() throws {
        let checks = try Repository.swiftSources(under: "Tests/HAAPIGatewayTests/Storage/Contract").flatMap { file in
            file.text.split(separator: "\n").compactMap { line -> String? in
                let declaration = line.trimmingCharacters(in: .whitespaces)
                guard declaration.hasPrefix("static func "), declaration.contains("(_ backend: any StorageContractBackend)") else { return nil }
                return String(declaration.dropFirst("static func ".count).prefix { $0 != "(" })
            }
        }
        #expect(checks.count >= 18, "\(checks)")
        for path in [
            "Tests/HAAPIGatewayTests/Storage/Contract/MemoryStorageContractTests.swift",
            "Tests/HAAPIGatewayTests/PostgreSQL/PostgresStorageTests+Contract.swift",
        ] {
            let suite = try String(contentsOf: Repository.root.appendingPathComponent(path), encoding: .utf8)
            let missing = checks.filter { !suite.contains("StorageContract.\($0)(backend)") }
            #expect(missing.isEmpty, "\(path) does not run \(missing)")
        }
    }
}
