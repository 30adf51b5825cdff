import HTTPTypes
import Hummingbird
import NIOCore

@testable import HAAPIGateway

/// The id of the one session the target knows (what a forged cookie must never match).
private let knownSessionID = SecureToken.make()

/// libFuzzer entry point: any bytes as a `Cookie` header are read the way the sign-in routes read the session cookie
/// (both names); the value is compared with a session id in constant time (only the id itself may match), and the
/// bytes as a request path go through the log redaction of pairing links.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionCookie(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    var fields = HTTPFields()
    fields[.cookie] = text
    let request = Request(
        head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/", headerFields: fields),
        body: .init(buffer: ByteBuffer())
    )
    for name in ["haapi-gateway", "__Host-haapi-gateway"] {
        guard let id = request.cookies[name]?.value else { continue }
        if SecureToken.constantTimeEquals(id, knownSessionID), id != knownSessionID { fatalError("a different value matched the session id") }
    }
    let logged = RequestLogMiddleware<BasicRequestContext>.loggablePath(text)
    if text.hasPrefix("/pair/"), text != "/pair/confirm", logged != "/pair/…" { fatalError("a pairing secret reached the log") }
    return 0
}
