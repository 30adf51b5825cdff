import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// What `haapi-gateway proxy` refuses before forwarding: CONNECT, TRACE, a request meant for another host, a web page's request.
@Suite("The proxy's request checks")
struct ProxyRequestCheckTests {
    private static let target = try! ProxyTarget("https://api.example.com")

    private static func status(_ method: String = "GET", host: String?, fields: [(name: String, value: String)] = []) -> Int? {
        ProxyRequestCheck.refusal(method: method, authority: host, fields: fields, port: 8787, target: target)?.status
    }

    @Test("a request to the proxy's own address passes: 127.0.0.1, localhost or [::1] and its port")
    func ownAddressPasses() {
        #expect(Self.status(host: "127.0.0.1:8787") == nil)
        #expect(Self.status(host: "localhost:8787") == nil)
        #expect(Self.status(host: "[::1]:8787") == nil)
        #expect(Self.status("POST", host: "127.0.0.1:8787", fields: [("Content-Type", "application/json")]) == nil)
    }

    @Test("CONNECT and TRACE are 405; a Host that is another server's, another port or missing is 421")
    func otherServersAreRefused() {
        #expect(Self.status("CONNECT", host: "other.example:443") == 405)
        #expect(Self.status("CONNECT", host: "127.0.0.1:8787") == 405)
        #expect(Self.status("TRACE", host: "127.0.0.1:8787") == 405, "the target would echo the added token back")
        #expect(Self.status("trace", host: "127.0.0.1:8787") == 405)
        #expect(Self.status(host: "other.example") == 421)
        #expect(Self.status(host: "rebound.attacker.example:8787") == 421, "DNS rebinding: a name that resolved to 127.0.0.1")
        #expect(Self.status(host: "127.0.0.1:9999") == 421)
        #expect(Self.status(host: "127.0.0.1") == 421, "port 80 is not the proxy's")
        #expect(Self.status(host: "127.0.0.1:+8787") == 421, "a port is digits only")
        #expect(Self.status(host: "[::1]:+8787") == 421)
        #expect(Self.status(host: "127.0.0.1: 8787") == 421)
        #expect(Self.status(host: nil) == 421)
    }

    @Test("a request a web page sends (Origin, Sec-Fetch-*) is 403")
    func browsersAreRefused() {
        #expect(Self.status(host: "127.0.0.1:8787", fields: [("Origin", "https://attacker.example")]) == 403)
        #expect(Self.status(host: "127.0.0.1:8787", fields: [("sec-fetch-site", "cross-site")]) == 403)
        #expect(Self.status(host: "127.0.0.1:8787", fields: [("Sec-Fetch-Mode", "no-cors")]) == 403)
    }
}
