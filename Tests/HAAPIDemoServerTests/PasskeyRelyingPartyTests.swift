import Foundation
import HAAPIDemoServer
import Testing

/// The passkeys' relying party: a host name, never an IP address (WebAuthn refuses one), and taken from a public URL
/// only when its host is a name.
@Suite("The passkeys' relying party")
struct PasskeyRelyingPartyTests {
    @Test("a host name is a relying-party id; an IP address, an empty label or another character is not")
    func relyingPartyIDs() {
        for id in ["localhost", "login.example.com", "a-b.example"] { #expect(DemoServerConfiguration.isRelyingPartyID(id), "\(id)") }
        for id in ["127.0.0.1", "10.0.0.1", "::1", "", "example..com", ".example.com", "exa_mple.com", "exämple.com", "host:8443"] {
            #expect(!DemoServerConfiguration.isRelyingPartyID(id), "\(id)")
        }
    }

    @Test("a public URL by name gives the passkeys its host and origin; one by IP address keeps localhost")
    func fromThePublicURL() throws {
        var named = DemoServerConfiguration()
        named.usePasskeys(for: try #require(URL(string: "https://Login.Example.com:8443/")))
        #expect(named.passkeyRelyingPartyID == "login.example.com")
        #expect(named.passkeyAllowedOrigins == ["https://login.example.com:8443"])
        var byAddress = DemoServerConfiguration()
        byAddress.usePasskeys(for: try #require(URL(string: "http://192.168.1.20:8080")))
        #expect(byAddress.passkeyRelyingPartyID == "localhost")
        #expect(byAddress.passkeyAllowedOrigins == DemoServerConfiguration().passkeyAllowedOrigins)
    }
}
