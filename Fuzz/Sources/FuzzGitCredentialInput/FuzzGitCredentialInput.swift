import Foundation

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// libFuzzer entry point: any bytes as git's request on the credential helper's standard input (decoded as
/// `git-credential` decodes it, invalid UTF-8 repaired) are parsed (``GitCredentialRequest``) and decided on; the
/// bytes are also read as `setup-git --host` (``GitCredentialHost``). A token may be sent only over https or plain
/// http to a loopback host; a host `setup-git` accepts configures an `https://` URL, or `http://` to a loopback host,
/// with nothing but the host after the scheme.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGitCredentialInput(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    if case .success(let request) = GitCredentialRequest.parse(text), request.isSafeForToken {
        guard let host = request.host, !host.isEmpty else { fatalError("a token would go to a request without a host") }
        switch request.scheme {
        case "https": break
        case "http":
            guard GitCredentialRequest.isLoopback(GitCredentialRequest.hostname(of: host)) else {
                fatalError("a token would go over plain http to a host that is not loopback")
            }
        default: fatalError("a token would go over \(request.scheme ?? "no protocol")")
        }
        let place = "\(request.scheme ?? "?")://\(host)"
        _ = LogText.untrusted(place)
    }
    for value in [text, text.split(separator: "\n").first.map(String.init) ?? ""] {
        guard case .success(let configured) = GitCredentialHost.parse(value) else { continue }
        let url = configured.url
        let host: Substring
        if url.hasPrefix("https://") {
            host = url.dropFirst("https://".count)
        } else if url.hasPrefix("http://") {
            host = url.dropFirst("http://".count)
            guard GitCredentialRequest.isLoopback(GitCredentialRequest.hostname(of: String(host))) else {
                fatalError("setup-git configured plain http to a host that is not loopback: \(url)")
            }
        } else {
            fatalError("setup-git configured a URL that is neither https nor http: \(url)")
        }
        guard !host.isEmpty, !host.contains(where: { "/@?#\\ \t\r\n".contains($0) }) else {
            fatalError("setup-git configured more than a host: \(url)")
        }
        let arguments = configured.gitArguments(executable: "/usr/local/bin/haapi-gateway")
        guard arguments.count == 2, arguments.allSatisfy({ $0.count == 5 && $0[3] == configured.configurationKey }) else {
            fatalError("setup-git's git arguments are not the two expected")
        }
    }
    _ = GitCredentialHost.shellQuoted(text)
    return 0
}
