import Foundation
import Testing

@testable import GatewayTestSupport

/// docs/architecture.md names only what the code has: every type, member, module and file it writes in code spans
/// (`GatewayStorage`, `HAAPIFlow.submitForm`, `DeviceAuthorizationStore.poll(deviceCode:clientID:)`, `Gateway.swift`)
/// is declared in `Sources/` (or, for the test support it describes, `Tests/`), as the settings reference is checked
/// against the settings' declarations.
@Suite("docs/architecture.md names what exists")
struct ArchitectureDocTests {
    /// The code spans of `text` that name code: a capitalised name with a lower-case letter (not `GET`), optionally
    /// followed by `.member`s and an argument list, or a Swift file's name.
    static func namedCode(in text: String) -> [String] {
        let spans = text.matches(of: /`([^`\n]+)`/).map { String($0.output.1) }
        return spans.filter { span in
            guard span.wholeMatch(of: /[A-Z][A-Za-z0-9]*(\.[A-Za-z_][A-Za-z0-9_]*)*(\([^)]*\))?|[A-Za-z0-9+]+\.swift/) != nil else {
                return false
            }
            return span.contains { $0.isLowercase }
        }
    }

    @Test("every type, member, module and file docs/architecture.md names is declared in Sources/ or Tests/")
    func everyNameExists() throws {
        let document = try String(contentsOf: Repository.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let sources = try SourceDeclarations.read()
        let names = Set(Self.namedCode(in: document)).sorted()
        #expect(names.count > 100, "the document's names were read: \(names.count)")
        let missing = names.filter { !sources.declares($0) }
        #expect(missing.isEmpty, "docs/architecture.md names what the package does not declare: \(missing.joined(separator: ", "))")
    }

    @Test("the check finds what does not exist: a made-up type, a made-up member, a wrong label, a missing file")
    func theCheckCanFail() throws {
        let sources = try SourceDeclarations.read()
        #expect(sources.declares("GatewayStorage"))
        #expect(sources.declares("HAAPIFlow.submitForm"))
        #expect(sources.declares("DeviceAuthorizationStore.poll(deviceCode:clientID:)"))
        #expect(sources.declares("Logger.MetadataValue.untrusted"))
        #expect(sources.declares("Gateway.swift") && sources.declares("HAAPIGatewayPostgres"))
        #expect(!sources.declares("GatewayWarpDrive"))
        #expect(!sources.declares("HAAPIFlow.teleport"))
        #expect(!sources.declares("DeviceAuthorizationStore.poll(userCode:)"))
        #expect(!sources.declares("Nowhere.swift"))
        #expect(!sources.declares("Gateway.storage(for:)"), "the name docs/architecture.md had in 2026-11 and the code never did")
    }
}
