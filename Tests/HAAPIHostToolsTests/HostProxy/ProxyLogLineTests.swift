import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// The line `haapi-gateway proxy` logs per request: no query, no forged lines.
@Suite("The proxy's request log line")
struct ProxyLogLineTests {
    @Test("method, path, status and milliseconds; a query is shown as ?… only; a note in parentheses")
    func line() {
        #expect(ProxyLogLine.line(method: "GET", requestTarget: "/me", status: 200, duration: .milliseconds(35)) == "GET /me 200 35 ms")
        #expect(
            ProxyLogLine.line(method: "GET", requestTarget: "/search?api_key=s3cret&q=x", status: 200, duration: .seconds(2))
                == "GET /search?… 200 2000 ms"
        )
        #expect(
            ProxyLogLine.line(method: "POST", requestTarget: "/x", status: 401, duration: .zero, note: "use_dpop_nonce: sent again")
                == "POST /x 401 0 ms (use_dpop_nonce: sent again)"
        )
    }

    @Test("control characters a client puts in the path or method cannot start a line of their own")
    func noForgedLines() {
        let line = ProxyLogLine.line(method: "GET\n", requestTarget: "/a\nGET /forged 200 1 ms", status: 404, duration: .zero)
        #expect(!line.contains("\n"))
        #expect(line.contains("\\n"))
    }
}
