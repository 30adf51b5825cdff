import Foundation
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// `--to` of `haapi-gateway proxy`: an https origin (plain http to loopback only) with an optional base path, and every
/// request's target put under it, never anywhere else.
@Suite("The proxy's target (--to)")
struct ProxyTargetTests {
    private static func message(_ text: String) -> String? {
        do {
            _ = try ProxyTarget(text)
            return nil
        } catch {
            return error.message
        }
    }

    private static func refusal(_ target: ProxyTarget, _ requestTarget: String) -> ProxyRefusal? {
        do {
            _ = try target.url(for: requestTarget)
            return nil
        } catch {
            return error
        }
    }

    @Test("https to anywhere and plain http to a loopback address are accepted; a trailing slash of the base path is dropped")
    func acceptedTargets() throws {
        let api = try ProxyTarget("https://API.example.com")
        #expect(api.origin == "https://api.example.com")
        #expect(api.basePath == "")
        let based = try ProxyTarget("https://api.example.com:8443/v1/")
        #expect(based.origin == "https://api.example.com:8443")
        #expect(based.basePath == "/v1")
        #expect(try ProxyTarget("http://127.0.0.1:9000").origin == "http://127.0.0.1:9000")
        #expect(try ProxyTarget("http://localhost:9000/api").basePath == "/api")
        #expect(try ProxyTarget("http://[::1]:9000").origin == "http://[::1]:9000")
    }

    @Test("plain http to a host that is not loopback, a query, a fragment, user info, another scheme and dot segments are refused, naming why")
    func refusedTargets() {
        #expect(Self.message("http://example.com")?.contains("must use https (plain http only to a loopback address)") == true)
        #expect(Self.message("http://10.0.0.5:8080")?.contains("must use https") == true)
        #expect(Self.message("http://127.0.0.1.example.com")?.contains("must use https") == true)
        #expect(Self.message("https://api.example.com/?key=1")?.contains("must not have a query") == true)
        #expect(Self.message("https://api.example.com/#top")?.contains("must not have a query, a fragment") == true)
        #expect(Self.message("https://user:secret@api.example.com")?.contains("user info") == true)
        #expect(Self.message("https://user:secret@api.example.com")?.contains("secret") == false, "a password in the URL is not repeated")
        #expect(Self.message("ftp://api.example.com")?.contains("is not an absolute http(s) URL") == true)
        #expect(Self.message("api.example.com")?.contains("is not an absolute http(s) URL") == true)
        #expect(Self.message("https://api.example.com/v1/../admin")?.contains(". or .. segment") == true)
    }

    @Test("a request's path and query go under the base path, as they are")
    func urlsUnderTheBasePath() throws {
        let api = try ProxyTarget("https://api.example.com")
        #expect(try api.url(for: "/me").absoluteString == "https://api.example.com/me")
        #expect(try api.url(for: "/").absoluteString == "https://api.example.com/")
        #expect(try api.url(for: "/search?q=a%20b&x=1").absoluteString == "https://api.example.com/search?q=a%20b&x=1")
        #expect(try api.url(for: "//evil.example/x").host == "api.example.com", "a path that looks like an authority stays a path")
        let based = try ProxyTarget("https://api.example.com/v1")
        #expect(try based.url(for: "/orders/7").absoluteString == "https://api.example.com/v1/orders/7")
        #expect(try based.url(for: "/").absoluteString == "https://api.example.com/v1/")
        #expect(try based.url(for: "/a..b/c.d").absoluteString == "https://api.example.com/v1/a..b/c.d", "dots inside a segment are no dot segment")
        #expect(try based.url(for: "/a;v=1/..b;x").absoluteString == "https://api.example.com/v1/a;v=1/..b;x", "nor are ;parameters elsewhere")
    }

    @Test(
        "a target that is not a path, or whose path has a . or .. segment (also percent-encoded, after %2F or a backslash, or with ;parameters), is refused with 400",
        arguments: [
            "*", "http://other.example/x", "other.example:443", "", "/../admin", "/v2/../../admin", "/./x", "/%2e%2e/admin", "/%2E./admin",
            "/x%2f..%2fadmin", "/x\\..\\admin", "/x%5c..%5cadmin", "/..", "/me#frag", "/..;/admin", "/v2/..;jsessionid=1/admin",
            "/%2e%2e%3b/admin", "/.;x/me",
        ]
    )
    func escapesAreRefused(requestTarget: String) throws {
        let based = try ProxyTarget("https://api.example.com/v1")
        let refusal = Self.refusal(based, requestTarget)
        #expect(refusal?.status == 400, "\(requestTarget) → \(String(describing: refusal))")
    }
}
