import HTTPTypes
import Hummingbird
import NIOCore

@testable import HAAPIGateway

/// libFuzzer entry point: any bytes as a `Cookie` header are read the way the sign-in routes read the session cookie
/// (both names), and the id is looked up in a session store holding one session; only its exact id may find it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionCookie(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    var fields = HTTPFields()
    fields[.cookie] = text
    let request = Request(
        head: HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1", path: "/", headerFields: fields), body: .init(buffer: ByteBuffer()))
    for name in ["haapi-gateway", "__Host-haapi-gateway"] {
        guard let id = request.cookies[name]?.value else { continue }
        if SessionLookup.find(id) != nil, id != SessionLookup.knownID { fatalError("a cookie that is not the session's id found it") }
    }
    return 0
}
