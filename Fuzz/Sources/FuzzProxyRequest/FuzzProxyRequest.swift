import Foundation
import HTTPTypes

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// The targets requests are checked against: one with a base path, one at an origin's root.
private let targets: [ProxyTarget] = {
    do throws(GatewayError) {
        return [try ProxyTarget("https://api.example.com/v1"), try ProxyTarget("http://127.0.0.1:9000")]
    } catch {
        fatalError("the fuzz target's own --to values were refused: \(error.message)")
    }
}()

/// The port the proxy listens on here.
private let ownPort = 8787

/// libFuzzer entry point: any bytes as a request to `haapi-gateway proxy`, its first line `METHOD request-target` and
/// each further line a header field `name: value` (fields whose name HTTP cannot carry dropped, as the server's parser
/// drops the request; `Host` taken as the authority). The request goes through what the proxy does before forwarding
/// (``ProxyRequestCheck``, ``ProxyTarget/url(for:)``, ``ProxyHeaders``, ``ProxyLogLine``), and the fields through what it
/// reads of the target's answer (``DPoPNonceChallenge``). A request-target that is accepted must stay under the target's
/// origin and base path, as sent; an accepted request must be for the proxy's own address; no field the proxy replaces or
/// a hop-by-hop one may pass on; the log line must stay one line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProxyRequest(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }
    let requestLine = lines.first ?? ""
    let method: String, requestTarget: String
    if let space = requestLine.firstIndex(of: " ") {
        method = String(requestLine[..<space])
        requestTarget = String(requestLine[requestLine.index(after: space)...])
    } else {
        (method, requestTarget) = ("GET", String(requestLine))
    }
    var authority: String?
    var fields: [(name: String, value: String)] = []
    for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        let name = String(line[..<colon]), value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        guard let fieldName = HTTPField.Name(name) else { continue }
        let field = HTTPField(name: fieldName, value: value)
        if field.name.canonicalName == "host" {
            if authority == nil { authority = field.value }
        } else {
            fields.append((name: field.name.rawName, value: field.value))
        }
    }
    for target in targets {
        check(method: method, requestTarget: requestTarget, authority: authority, fields: fields, target: target)
    }
    return 0
}

/// Checks one request against `target`.
private func check(method: String, requestTarget: String, authority: String?, fields: [(name: String, value: String)], target: ProxyTarget) {
    let refusal = ProxyRequestCheck.refusal(method: method, authority: authority, fields: fields, port: ownPort, target: target)
    if refusal == nil {
        guard method.uppercased() != "CONNECT" else { fatalError("CONNECT was accepted") }
        guard let authority, let colon = authority.lastIndex(of: ":"), Int(authority[authority.index(after: colon)...]) == ownPort else {
            fatalError("a request for another address than the proxy's was accepted")
        }
        if fields.contains(where: { ProxyRequestCheck.browserFields.contains($0.name.lowercased()) }) {
            fatalError("a browser's request was accepted")
        }
    }
    var sent = requestTarget
    if let url = try? target.url(for: requestTarget) {
        sent = ProxyTarget.requestTarget(of: url)
        let expected = URLComponents(string: target.origin)
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        guard let components, components.scheme == expected?.scheme, components.host == expected?.host, components.port == expected?.port,
            components.user == nil, components.password == nil
        else { fatalError("an accepted request-target leaves \(target.origin): \(url.absoluteString)") }
        let sentPath = sent.prefix { $0 != "?" }
        guard sentPath.hasPrefix(target.basePath + "/"), ProxyTarget.dotSegment(in: sentPath) == nil else {
            fatalError("an accepted request-target is sent outside \(target.origin)\(target.basePath)/: \(sent)")
        }
        let decodedBase = target.basePath.removingPercentEncoding ?? target.basePath
        // Foundation's `path` is decoded, and leaves out a trailing `/` (`/v1/` is `/v1`).
        guard url.path == decodedBase || url.path.hasPrefix(decodedBase + "/") else {
            fatalError("an accepted request-target's path leaves \(target.basePath)/: \(url.path)")
        }
    }
    let passed = Set(ProxyHeaders.towardsTarget(fields).map { $0.name.lowercased() })
    let forbidden = ProxyHeaders.hopByHop.union(ProxyHeaders.replacedTowardsTarget).union(ProxyHeaders.namedByConnection(fields))
    if !passed.isDisjoint(with: forbidden) { fatalError("a hop-by-hop field or one the proxy sets itself passed on to the target") }
    let answered = Set(ProxyHeaders.towardsClient(fields).map { $0.name.lowercased() })
    if !answered.isDisjoint(with: ProxyHeaders.hopByHop.union(ProxyHeaders.namedByConnection(fields))) {
        fatalError("a hop-by-hop field passed back to the client")
    }
    let line = ProxyLogLine.line(
        method: method,
        requestTarget: sent,
        status: refusal?.status ?? 200,
        duration: .milliseconds(3),
        note: refusal?.message
    )
    if line.contains(where: \.isNewline) { fatalError("the request's log line is not one line") }
    let offered = DPoPNonceChallenge.offeredNonce(fields)
    if let demanded = DPoPNonceChallenge.demandedNonce(status: 401, fields: fields), demanded != offered {
        fatalError("the nonce demanded is not the one the answer carries")
    }
}
