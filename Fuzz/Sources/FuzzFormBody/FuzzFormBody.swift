import Foundation

@testable import HAAPIGateway

/// libFuzzer entry point: any bytes as an urlencoded form body (decoded as the gateway does, invalid UTF-8 repaired)
/// and as an action address from a form's path must parse or be refused, never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormBody(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let form = FormBody(parsing: text)
    _ = SecureToken.constantTimeEquals(form.values["_csrf"] ?? "", "expected-csrf-token")
    _ = ActionAddress(path: text)
    return 0
}
