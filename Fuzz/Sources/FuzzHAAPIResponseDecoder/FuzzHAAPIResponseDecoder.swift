import Foundation
import HAAPI

/// libFuzzer entry point: any bytes as the body of a HAAPI response (a step with 200, a problem with 400) must decode
/// or be refused with a `HAAPIError`, never crash or hang.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHAAPIResponseDecoder(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let body = Data(bytes: start, count: count)
    _ = try? HAAPIResponse.decode(status: 200, contentType: "application/vnd.auth+json", body: body)
    _ = try? HAAPIResponse.decode(status: 400, contentType: "application/problem+json", body: body)
    return 0
}
