import Foundation
import HAAPI
import HAAPIGateway

/// libFuzzer entry point: bytes that decode to a HAAPI step are rendered with the shipped templates; the page must
/// never carry a script element or an unescaped marker from the input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStepRenderer(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let json = try? JSONValue.parse(data), let step = try? Representation(json: json) else { return 0 }
    let html = ShippedTemplates.renderer.render(step)
    if html.lowercased().contains("<script") { fatalError("a script element reached the page") }
    return 0
}
