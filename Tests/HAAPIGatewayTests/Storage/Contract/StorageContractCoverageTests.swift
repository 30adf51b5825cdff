import Foundation
import Testing

@testable import GatewayTestSupport

/// Both backends run ``StorageContract/checks``; this keeps that list whole, so that a check added to
/// ``StorageContract`` is not left out of it.
@Suite("The storage contract's suites")
struct StorageContractCoverageTests {
    @Test("every check of StorageContract is in StorageContract.checks, once")
    func everyCheckIsListed() throws {
        let checks = try Repository.swiftSources(under: "Tests/HAAPIGatewayTests/Storage/Contract").flatMap { file in
            file.text.split(separator: "\n").compactMap { line -> String? in
                let declaration = line.trimmingCharacters(in: .whitespaces)
                guard declaration.hasPrefix("static func "), declaration.contains("(_ backend: any StorageContractBackend)") else { return nil }
                return String(declaration.dropFirst("static func ".count).prefix { $0 != "(" })
            }
        }
        #expect(checks.count >= 18, "\(checks)")
        let list = try String(
            contentsOf: Repository.root.appendingPathComponent("Tests/HAAPIGatewayTests/Storage/Contract/StorageContract+Checks.swift"),
            encoding: .utf8
        )
        let missing = try checks.filter { list.firstMatch(of: try Regex("\\b\($0)\\b")) == nil }
        #expect(missing.isEmpty, "StorageContract.checks leaves out \(missing)")
        #expect(StorageContract.checks.count == checks.count, "each check once: \(StorageContract.checks.map(\.name))")
    }
}
