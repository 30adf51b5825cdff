import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// The Curity documents of this project name only Curity names the table has, each with its source there.
@Suite("Curity names in the docs")
struct CurityNamesInDocsTests {
    @Test(
        "docs/curity-setup.md and docs/curity-compatibility.md name no Curity setting, error or problem type that CurityNames lacks",
        arguments: ["docs/curity-setup.md", "docs/curity-compatibility.md"]
    )
    func everyCurityNameIsInTheTable(document: String) throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(document), encoding: .utf8)
        let unknown = CurityNameFinder.unknownNames(in: text)
        #expect(
            unknown.isEmpty,
            "\(document) names \(unknown.joined(separator: ", ")): add each to CurityNames with its Curity source, or to CurityNameFinder.notCurity with why it is not Curity's"
        )
    }

    @Test("a name the table lacks is found: a setting path, a kebab-case element, an error and a problem type")
    func anUnknownNameIsFound() {
        let text = """
            Set `profiles/profile{token-service}/settings/authorization-server/made-up-setting`, `another-made-up`, \
            `made_up_error` and https://curity.se/problems/made-up; `issuer-override` and `use_dpop_nonce` are Curity's.
            """
        #expect(
            CurityNameFinder.unknownNames(in: text) == ["https://curity.se/problems/made-up", "made-up-setting", "another-made-up", "made_up_error"]
        )
    }

    @Test("every entry of the table names its source")
    func everyEntryHasASource() {
        for entry in CurityNames.all {
            #expect(entry.source.hasPrefix("https://") || entry.source.hasPrefix("curityio/"), "\(entry.name): \(entry.source)")
        }
        #expect(Set(CurityNames.all.map { "\($0.kind)\($0.name)\($0.source)" }).count == CurityNames.all.count, "no entry twice")
    }
}
