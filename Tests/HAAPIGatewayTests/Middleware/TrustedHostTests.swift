import Foundation
import HTTPTypes
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
                ("[::1", nil, "127.0.0.1", false), ("GATEWAY.lan:8080", nil, "gateway.lan", true), ("gätewäy.lan", nil, "gätewäy.lan", false),
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
            "a path is routed as it is logged, normalised (`/x/../device` is `/device`, `//healthz` is `/healthz`); HEAD is answered for every GET route, without a body, and logged as HEAD",
            arguments: [true, false]
        )
        func routedAsLoggedAndHead(kiosk: Bool) async throws {
            let capture = LogCapture()
            let routes = GatewayRoutes()
            let ticket = PairingTicket.make(lifetime: .seconds(120))
            // Every optional group of routes on: devices, start links, the embedded demo's outbox, and kiosk mode or the
            // pairing of `login` (one sign-in mode at a time: ``SignInMode``).
            let everyRoute: (inout GatewayConfiguration) -> Void = { configuration in
                TestDevice.configure(&configuration)
                configuration.startLinks.secret = "start-link-secret-0123456789abcdef"
                if kiosk {
                    configuration.kiosk = KioskSettings(enabled: true, resetAfterSeconds: 7, idleResetSeconds: 90)
                } else {
                    configuration.pairing = PairingSettings(ticket: ticket, hostName: "build-host-7")
                }
            }
            try await GatewayHarness.withGateway(
                logger: capture.logger,
                configure: everyRoute,
                demoOutbox: { Array(#"{"messages":[]}"#.utf8) },
                routes: routes
            ) { browser, _, _ in
                let port = try #require(URL(string: browser.baseURL)?.port)
                let host = "Host: 127.0.0.1:\(port)\r\nConnection: close\r\n\r\n"
                let dotted = try await RawHTTPExchange.send("GET /x/../device HTTP/1.1\r\n" + host, port: port)
                #expect(dotted.status == 200, "\(dotted.text.prefix(200))")
                #expect(dotted.text.contains("user_code"))
                #expect(try await RawHTTPExchange.send("GET //healthz HTTP/1.1\r\n" + host, port: port).status == 200)
                // Every GET route the router has, its parameters filled in: HEAD is answered as GET is (the same status
                // and type), without the body. The route answers, not the router: not as a path it has no route for.
                let unrouted = try await RawHTTPExchange.send("GET /no/route/here HTTP/1.1\r\n" + host, port: port)
                #expect(unrouted.status == 404)
                let values = ["name": "gateway.css", "token": ticket.token, "version": "1", "index": "0", "outcome": "signed-in"]
                let paths = try Self.getPaths(routes.all, values: values)
                for expected in ["/", "/healthz", "/assets/gateway.css", "/device", "/start", "/demo/outbox", kiosk ? "/kiosk/next" : ticket.path] {
                    #expect(paths.contains(expected), "\(expected) is not among the GET routes: \(paths)")
                }
                for path in paths {
                    // A GET just before and just after: an answer that changes with the moment (`/readyz` on a loaded
                    // machine) is the same as one of them. A HEAD that is not routed never is; it is asked up to 5 times.
                    var exchanges: [String] = []
                    var answered = false
                    for _ in 1...5 where !answered {
                        let before = try await RawHTTPExchange.send("GET \(path) HTTP/1.1\r\n" + host, port: port)
                        let head = try await RawHTTPExchange.send("HEAD \(path) HTTP/1.1\r\n" + host, port: port)
                        let after = try await RawHTTPExchange.send("GET \(path) HTTP/1.1\r\n" + host, port: port)
                        let gets = [before, after].map { Self.statusAndType($0.text) }
                        #expect(
                            !gets.contains(Self.statusAndType(unrouted.text)),
                            "GET \(path) is answered as no route: \(before.text.prefix(300))"
                        )
                        #expect(Self.body(of: head.text).isEmpty, "a body for HEAD \(path): \(Self.body(of: head.text).prefix(200))")
                        answered = gets.contains(Self.statusAndType(head.text))
                        exchanges.append("GET \(gets[0]), HEAD \(Self.statusAndType(head.text)), GET \(gets[1])")
                    }
                    #expect(answered, "HEAD \(path) is not answered as GET is: \(exchanges)")
                }
            }
            let lines = capture.text.split(separator: "\n").filter { $0.contains(#""path": /healthz"#) }
            #expect(lines.contains { $0.contains(#""method": HEAD"#) }, "\(lines)")
            #expect(lines.contains { $0.contains(#""method": GET"#) }, "the GET of //healthz")
        }

        /// The paths of the GET routes among `routes`, each parameter (`{name}` or `:name`) replaced by its value in
        /// `values` (a route whose parameter has none is a failure: give it one), and a `*` or `**` segment by `x`.
        static func getPaths(_ routes: [(method: HTTPRequest.Method, path: RouterPath)], values: [String: String]) throws -> [String] {
            try routes.filter { $0.method == .get }.map { route in
                let segments = try route.path.description.split(separator: "/").map { segment -> String in
                    if segment.hasPrefix("*") { return "x" }
                    guard segment.hasPrefix(":") || segment.hasPrefix("{") else { return String(segment) }
                    let name = String(segment.trimmingCharacters(in: CharacterSet(charactersIn: ":{}")))
                    return try #require(values[name], "no value for \(segment) of GET \(route.path)")
                }
                return "/" + segments.joined(separator: "/")
            }
        }

        /// The status line and the Content-Type of a raw HTTP/1.1 answer.
        static func statusAndType(_ answer: String) -> String {
            let head = answer.components(separatedBy: "\r\n\r\n").first ?? ""
            let lines = head.components(separatedBy: "\r\n")
            let type = lines.dropFirst().first { $0.lowercased().hasPrefix("content-type:") }
            return (lines.first ?? "") + " " + (type ?? "(no Content-Type)")
        }

        /// What follows the header of a raw HTTP/1.1 answer.
        static func body(of answer: String) -> String {
            guard let end = answer.range(of: "\r\n\r\n") else { return answer }
            return String(answer[end.upperBound...])
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
