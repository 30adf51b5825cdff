import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// `--listen` of `haapi-gateway proxy`: a loopback address and port, and nothing else.
@Suite("The proxy's listening address (--listen)")
struct ProxyListenAddressTests {
    private static func message(_ text: String) -> String? {
        do {
            _ = try ProxyListenAddress(text)
            return nil
        } catch {
            return error.message
        }
    }

    @Test("loopback addresses with a port, a bare port (127.0.0.1) and a bare address (port 8787) are accepted")
    func loopbackIsAccepted() throws {
        #expect(try ProxyListenAddress("127.0.0.1:8787") == ProxyListenAddress("8787"))
        let any = try ProxyListenAddress("127.0.0.1:0")
        #expect(any.host == "127.0.0.1" && any.port == 0)
        let six = try ProxyListenAddress("[::1]:9000")
        #expect(six.host == "::1" && six.port == 9000)
        #expect(six.description == "[::1]:9000")
        #expect(try ProxyListenAddress("localhost").port == 8787)
        #expect(try ProxyListenAddress("127.5.6.7:1").host == "127.5.6.7")
    }

    @Test(
        "any address that is not loopback is refused, saying the proxy listens on loopback only",
        arguments: ["0.0.0.0:8787", "0.0.0.0", "[::]:8787", "192.168.1.10:80", "127.0.0.1.example.com:80", "example.com:8787", "128.0.0.1:1"]
    )
    func otherAddressesAreRefused(address: String) {
        #expect(Self.message(address)?.contains("is not a loopback address") == true, "\(address)")
    }

    @Test("malformed values are refused, naming the form", arguments: ["127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:x", "[::1", "[::1]x", ""])
    func malformedValuesAreRefused(address: String) {
        #expect(Self.message(address)?.contains("is not ADDRESS:PORT") == true, "\(address): \(Self.message(address) ?? "accepted")")
    }
}
