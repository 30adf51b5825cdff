import Foundation
import HAAPIGateway
import Hummingbird
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

extension SecurityAndReliabilityTests {
    /// The gateway answers only for its own host names (no DNS rebinding can choose the origin the CSRF check compares
    /// with, or the addresses it builds), refuses a second `Host` header, and routes and logs every request by its
    /// normalised path.
    @Suite("Trusted host names and normalised paths")
    struct TrustedHostTests {
        @Test(
            "which host names are the gateway's",
            arguments: [
                ("127.0.0.1:8080", nil, "127.0.0.1", true), ("localhost:8080", nil, "127.0.0.1", true), ("[::1]:8080", nil, "127.0.0.1", true),
                ("192.168.1.20:8080", nil, "0.0.0.0", true), ("gateway.lan:8080", nil, "gateway.lan", true),
                ("evil.example", nil, "127.0.0.1", false),
                ("evil.example:8080", nil, "0.0.0.0", false), ("login.example.com", "https://login.example.com", "0.0.0.0", true),
                ("LOGIN.example.com:443", "https://login.example.com", "0.0.0.0", true),
                ("127.0.0.1:8080", "https://login.example.com", "127.0.0.1", false),
                ("evil.example/x", nil, "127.0.0.1", false), ("127.0.0.1:80x", nil, "127.0.0.1", false), ("", nil, "127.0.0.1", false),
                ("[::1", nil, "127.0.0.1", false),
            ] as [(String, String?, String, Bool)]
        )
        func hostNames(authority: String, publicURL: String?, listening: String, accepted: Bool) {
            #expect(TrustedHosts.accepts(authority, publicURL: publicURL.flatMap(URL.init(string:)), listeningHost: listening) == accepted)
        }

        @Test(
            "paths are normalised",
            arguments: [
                ("//pair/secret", "/pair/secret"), ("/a/./b/../pair/x", "/a/pair/x"), ("/../../pair/x", "/pair/x"), ("/", "/"), ("//", "/"),
                ("/step/1/action/0.0", "/step/1/action/0.0"), ("/assets//gateway.css", "/assets/gateway.css"), ("/a/", "/a/"),
            ]
        )
        func paths(path: String, normalized: String) {
            #expect(NormalizedRequestResponder<RouterResponder<GatewayRequestContext>>.normalize(path) == normalized)
        }

        @Test("a foreign Host is refused with 421, even with a matching Origin; two Host headers with 400; probes answer any host")
        func foreignAndDuplicateHosts() async throws {
            try await GatewayHarness.withGateway { browser, _, _ in
                let port = try #require(URL(string: browser.baseURL)?.port)
                let foreign = try await RawHTTPExchange.send("GET / HTTP/1.1\r\nHost: evil.example:\(port)\r\nConnection: close\r\n\r\n", port: port)
                #expect(foreign.status == 421)
                #expect(foreign.text.contains("This address does not belong to this sign-in service."))
                #expect(!foreign.text.contains("haapi-gateway="), "no session was started for it")
                let forged = try await RawHTTPExchange.send(
                    "POST /cancel HTTP/1.1\r\nHost: evil.example\r\nOrigin: http://evil.example\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\nConnection: close\r\n\r\n_csrf=x",
                    port: port
                )
                #expect(forged.status == 421)
                let duplicate = try await RawHTTPExchange.send(
                    "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nHost: evil.example\r\nConnection: close\r\n\r\n",
                    port: port
                )
                #expect(duplicate.status == 400)
                let own = try await RawHTTPExchange.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n", port: port)
                #expect(own.status == 200)
                let probe = try await RawHTTPExchange.send("GET /readyz HTTP/1.1\r\nHost: 10.0.0.7:\(port)\r\nConnection: close\r\n\r\n", port: port)
                #expect(probe.status != 421)
            }
        }

        @Test(
            "a path is routed as it is logged, normalised (`/x/../device` is `/device`, `//healthz` is `/healthz`); HEAD is answered for every GET route, without a body, and logged as HEAD"
        )
        func routedAsLoggedAndHead() async throws {
            let capture = LogCapture()
            try await GatewayHarness.withGateway(logger: capture.logger, configure: TestDevice.configure) { browser, _, _ in
                let port = try #require(URL(string: browser.baseURL)?.port)
                let host = "Host: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
                let dotted = try await RawHTTPExchange.send("GET /x/../device HTTP/1.1\r\n" + host, port: port)
                #expect(dotted.status == 200, "\(dotted.text.prefix(200))")
                #expect(dotted.text.contains("user_code"))
                #expect(try await RawHTTPExchange.send("GET //healthz HTTP/1.1\r\n" + host, port: port).status == 200)
                for path in ["/", "/device", "/healthz", "/.well-known/oauth-authorization-server", "/assets/gateway.css"] {
                    let head = try await RawHTTPExchange.send("HEAD \(path) HTTP/1.1\r\n" + host, port: port)
                    #expect(head.status == 200, "HEAD \(path): \(head.status)")
                    #expect(!head.text.contains("<html") && !head.text.contains("{\""), "no body for HEAD \(path)")
                }
            }
            let lines = capture.text.split(separator: "\n").filter { $0.contains(#""path": /healthz"#) }
            #expect(lines.contains { $0.contains(#""method": HEAD"#) }, "\(lines)")
            #expect(lines.contains { $0.contains(#""method": GET"#) }, "the GET of //healthz")
        }

        @Test("with server.publicURL only its host is answered")
        func publicURLHostOnly() async throws {
            try await GatewayHarness.withGateway(configure: { $0.server.publicBaseURL = URL(string: "https://login.example.com") }) { browser, _, _ in
                let port = try #require(URL(string: browser.baseURL)?.port)
                #expect(
                    try await RawHTTPExchange.send("GET / HTTP/1.1\r\nHost: login.example.com\r\nConnection: close\r\n\r\n", port: port).status == 200
                )
                #expect(
                    try await RawHTTPExchange.send("GET / HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n", port: port).status == 421
                )
            }
        }

        @Test("//pair/<secret> is routed as /pair/<secret> and its secret never reaches the log")
        func pairingSecretBehindDoubleSlash() async throws {
            let ticket = PairingTicket.make(lifetime: .seconds(120))
            let capture = LogCapture()
            try await GatewayHarness.withGateway(
                logger: capture.logger,
                configure: { $0.pairing = PairingSettings(ticket: ticket, hostName: "build-host-7") }
            ) {
                browser,
                _,
                _ in
                let confirm = try await browser.get("/" + ticket.path)
                #expect(confirm.status == 200 && confirm.html.contains(ticket.code))
                _ = try await browser.get("/x/.." + ticket.path)
            }
            #expect(capture.text.contains("/pair/…"))
            #expect(!capture.text.contains(ticket.token), "the single-use secret was logged")
        }
    }
}
