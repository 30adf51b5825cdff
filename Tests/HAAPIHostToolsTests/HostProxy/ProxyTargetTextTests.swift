import Foundation
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// A path whose percent-escapes do not decode to UTF-8 text: Foundation's `URL` has no `path` for it, and the HTTP client
/// would send `/` in its place, so it is refused; the request-target the client writes is what the log names.
@Suite("The proxy's target (--to): paths that are not UTF-8 text")
struct ProxyTargetTextTests {
    @Test(
        "a path with a percent-escape that is not UTF-8 (or is malformed) is refused with 400, naming why",
        arguments: ["/anything/%ff", "/anything/%80?q=1", "/%c3%28", "/%c0%ae%c0%ae/secret", "/%ed%a0%80", "/a%zz", "/a%"]
    )
    func escapesThatAreNotTextAreRefused(requestTarget: String) throws {
        let based = try ProxyTarget("http://127.0.0.1:9000/v1")
        do {
            let url = try based.url(for: requestTarget)
            Issue.record("\(requestTarget) was made into \(url.absoluteString), which the client sends as \(ProxyTarget.requestTarget(of: url))")
        } catch {
            #expect(error.status == 400)
            #expect(error.message.contains("percent-escape that is not UTF-8 text"), "\(error.message)")
        }
    }

    @Test("the request-target the HTTP client writes is the path checked, byte for byte, with its query")
    func theRequestTargetSentIsThePathChecked() throws {
        let based = try ProxyTarget("http://127.0.0.1:9000/v1")
        for path in ["/anything/%c3%a9t%C3%A9%2Fx%20y?q=%ff", "/me", "/a%00b", "/"] {
            #expect(ProxyTarget.requestTarget(of: try based.url(for: path)) == "/v1" + path)
        }
        // What the client would have sent for a path that is not text: the origin's root (why it is refused).
        let unchecked = try #require(URL(string: "http://127.0.0.1:9000/v1/anything/%ff?q=1"))
        #expect(ProxyTarget.requestTarget(of: unchecked) == "/?q=1")
    }
}
