import Foundation
import HAAPI
import HAAPIGateway

/// libFuzzer entry point: bytes that decode to a HAAPI step are rendered with the shipped templates; the page must
/// never carry a script element other than the gateway's own files from `/assets/` (a waiting page's `refresh.js`,
/// an operation's script), whatever the step's text says.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzStepRenderer(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    guard let json = try? JSONValue.parse(data), let step = try? Representation(json: json) else { return 0 }
    let html = ShippedTemplates.renderer.render(step).lowercased()
    var rest = html[...]
    while let script = rest.range(of: "<script") {
        rest = rest[script.lowerBound...]
        guard let own = gatewayScript(at: rest) else { fatalError("a script element other than the gateway's own reached the page") }
        rest = rest[own...]
    }
    return 0
}

/// The end of `<script src="/assets/NAME.js" defer></script>` (NAME of letters, digits and `-`) at the start of `text`.
private func gatewayScript(at text: Substring) -> Substring.Index? {
    let prefix = "<script src=\"/assets/", suffix = ".js\" defer></script>"
    guard text.hasPrefix(prefix) else { return nil }
    let name = text.dropFirst(prefix.count).prefix { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
    guard !name.isEmpty, text[name.endIndex...].hasPrefix(suffix) else { return nil }
    return text.index(name.endIndex, offsetBy: suffix.count)
}
