import HTTPTypes
import Hummingbird
import NIOCore
import Testing

@testable import HAAPIGateway

/// `Request.cookieValue`: what Hummingbird's `cookies[name]?.value` answers, read without parsing every cookie.
@Suite("Reading one cookie of a request")
struct RequestCookieTests {
    private static func request(_ cookieHeaders: [String]) -> Request {
        var fields = HTTPFields()
        for header in cookieHeaders { fields.append(HTTPField(name: .cookie, value: header)) }
        return Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "gateway.test", path: "/", headerFields: fields),
            body: .init(buffer: ByteBuffer())
        )
    }

    @Test(
        "the exact name only (never a cookie whose name merely starts or ends with it), the first of repeats, across Cookie headers, as Hummingbird reads it",
        arguments: [
            ["haapi-session-other=x; haapi-session=abc; theme=dark"],
            ["a=1;haapi-session=abc"],
            ["x-haapi-session=no", "haapi-session=abc; haapi-session=second"],
            ["haapi-session=abc=with=equals"],
            ["haapi-session="],
            ["haapi-session", "other=1"],
            ["thème=sombre; haapi-session=abc", "haapi-session=second"],
            ["a=1;  haapi-session=abc"],
            [],
        ]
    )
    func readsTheNamedCookie(headers: [String]) {
        let request = Self.request(headers)
        #expect(request.cookieValue("haapi-session") == request.cookies["haapi-session"]?.value)
        #expect(request.cookieValue("haapi-sess") == nil)
    }

    @Test("the value of the named cookie")
    func value() {
        #expect(Self.request(["haapi-session-other=x; haapi-session=abc"]).cookieValue("haapi-session") == "abc")
    }
}
