import Foundation
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// The credential helpers git asks for a request, read from `git config --null --show-origin --get-regexp` as git
/// lists them, and `git-credential`'s refusal while another would be handed the token.
@Suite("git's credential helper chain")
struct GitCredentialHelperChainTests {
    static let gateway = "!/usr/local/bin/haapi-gateway git-credential"
    static let request = GitCredentialRequest(attributes: ["protocol": "https", "host": "git.example.com"])

    /// `git config --null --show-origin` output for `(origin, key, value)` records.
    static func output(_ records: [(String, String, String)]) -> Data {
        Data(records.map { "\($0.0)\u{0}\($0.1)\n\($0.2)\u{0}" }.joined().utf8)
    }

    @Test("git's listing parses into origin, URL and helper, in order; other keys and a record cut short are skipped")
    func parsesGitsListing() {
        var data = Self.output([
            ("file:/etc/gitconfig", "credential.helper", "cache --timeout=60"),
            ("file:/home/u/.gitconfig", "credential.https://git.example.com.helper", ""),
            ("command line:", "credential.https://git.example.com.helper", Self.gateway),
            ("file:/home/u/.gitconfig", "credential.usehttppath", "true"),
        ])
        data.append(Data("file:/x\u{0}credential.helper".utf8))
        #expect(
            GitCredentialHelperEntry.parse(data) == [
                GitCredentialHelperEntry(origin: "file:/etc/gitconfig", urlPattern: nil, helper: "cache --timeout=60"),
                GitCredentialHelperEntry(origin: "file:/home/u/.gitconfig", urlPattern: "https://git.example.com", helper: ""),
                GitCredentialHelperEntry(origin: "command line:", urlPattern: "https://git.example.com", helper: Self.gateway),
            ]
        )
    }

    @Test(
        "a URL-scoped helper applies by scheme, host (a * within a label) and port; without a scheme or port it applies to any",
        arguments: [
            ("https://git.example.com", true), ("http://git.example.com", false), ("https://other.example.com", false),
            ("https://*.example.com", true), ("https://git*.example.com", true), ("https://*.com", false),
            ("https://git.example.com:443", true), ("https://git.example.com:8443", false), ("git.example.com", true),
            ("https://user@git.example.com/team/app.git", true), ("HTTPS://GIT.example.com", true),
        ]
    )
    func appliesByURL(pattern: String, applies: Bool) {
        #expect(GitCredentialHelperEntry(origin: "", urlPattern: pattern, helper: "store").applies(to: Self.request) == applies)
    }

    @Test("a port in the request is compared with the pattern's; http's default port is 80")
    func ports() {
        let loopback = GitCredentialRequest(attributes: ["protocol": "http", "host": "127.0.0.1:8080"])
        #expect(GitCredentialHelperEntry(origin: "", urlPattern: "http://127.0.0.1:8080", helper: "x").applies(to: loopback))
        #expect(!GitCredentialHelperEntry(origin: "", urlPattern: "http://127.0.0.1:80", helper: "x").applies(to: loopback))
        let plain = GitCredentialRequest(attributes: ["protocol": "http", "host": "127.0.0.1"])
        #expect(GitCredentialHelperEntry(origin: "", urlPattern: "http://127.0.0.1:80", helper: "x").applies(to: plain))
    }

    @Test("an empty helper drops those before it: setup-git's lines leave this helper alone, a helper after them is named")
    func chain() throws {
        let store = GitCredentialHelperEntry(origin: "file:/home/u/.gitconfig", urlPattern: nil, helper: "store")
        let reset = GitCredentialHelperEntry(origin: "file:/home/u/.gitconfig", urlPattern: "https://git.example.com", helper: "")
        let gateway = GitCredentialHelperEntry(origin: "file:/home/u/.gitconfig", urlPattern: "https://git.example.com", helper: Self.gateway)
        let elsewhere = GitCredentialHelperEntry(origin: "file:/home/u/.gitconfig", urlPattern: "https://other.example.com", helper: "cache")

        let alone = GitCredentialHelperChain([store, reset, gateway, elsewhere], for: Self.request)
        #expect(alone.helpers == [gateway])
        #expect(alone.refusal(for: Self.request) == nil)

        let followed = GitCredentialHelperChain([reset, gateway, store], for: Self.request)
        #expect(followed.others == [store])
        let refusal = try #require(followed.refusal(for: Self.request))
        #expect(refusal.message.contains("git would also hand the token to store (credential.helper in file:/home/u/.gitconfig)"))
        #expect(refusal.message.contains("--remove-section credential.https://git.example.com and haapi-gateway setup-git again"))
        #expect(refusal.exitStatus == 1)

        #expect(GitCredentialHelperChain([], for: Self.request).refusal(for: Self.request) == nil, "git ran it directly, no chain")
    }

    @Test("this helper is known by any path to haapi-gateway and the git-credential operation, and nothing else")
    func recognisesThisHelper() {
        for helper in [Self.gateway, "!haapi-gateway git-credential", "!/opt/bin/haapi-gateway-1.2 git-credential --token-file t"] {
            #expect(GitCredentialHelperEntry(origin: "", urlPattern: nil, helper: helper).isThisGateway, "\(helper)")
        }
        for helper in ["store", "haapi-gateway git-credential", "!/usr/bin/other git-credential", "!haapi-gateway token"] {
            #expect(!GitCredentialHelperEntry(origin: "", urlPattern: nil, helper: helper).isThisGateway, "\(helper)")
        }
    }
}
