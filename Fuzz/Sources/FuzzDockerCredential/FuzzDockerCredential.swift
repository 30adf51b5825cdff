import Foundation

@testable import HAAPIHostTools

/// A token of the sign-in, as the helper hands it over.
private let token = CredentialHelperToken(value: "access-token", expiry: nil)

/// libFuzzer entry point: the bytes before the first NUL are Docker's `config.json` (``DockerCredentialRegistries``),
/// those after it the helper's standard input for `get` (the whole input for both without a NUL), each read as
/// `docker-credential` reads them; the input's lines are also a command line (``DockerCredentialInvocation``). A
/// registry is answered only when its `credHelpers` entry names the helper and the server URL names its host; no
/// answer goes over plain http beyond this host; what `get` and `list` print is JSON that reads back as written.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDockerCredential(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Data(bytes: start, count: count)
    let configuration: Data, input: Data
    if let nul = bytes.firstIndex(of: 0) {
        (configuration, input) = (bytes[..<nul], bytes[(nul + 1)...])
    } else {
        (configuration, input) = (bytes, bytes)
    }
    let text = String(decoding: input, as: UTF8.self)
    _ = DockerCredentialInvocation.arguments(text.split(separator: "\n").map(String.init))
    guard case .success(let registries) = DockerCredentialRegistries.parse(Data(configuration), path: "/home/person/.docker/config.json") else {
        return 0
    }
    let listing = registries.listing
    guard let listed = try? JSONSerialization.jsonObject(with: Data(listing.utf8)) as? [String: String],
        Set(listed.keys) == Set(registries.servers), listed.values.allSatisfy({ $0 == DockerCredential.username })
    else { fatalError("list printed what does not read back as the registries: \(listing)") }
    guard let serverURL = DockerCredential.serverURL(in: text), let registry = registries.registry(for: serverURL) else { return 0 }
    guard registries.servers.contains(registry),
        DockerCredentialRegistries.hostname(of: registry) == DockerCredentialRegistries.hostname(of: serverURL)
    else { fatalError("a server URL was answered for a registry of another host") }
    guard DockerCredentialRegistries.plainHTTPRefusal(serverURL: serverURL, registry: registry) == nil else { return 0 }
    for named in [serverURL, registry] {
        let trimmed = named.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.lowercased().hasPrefix("http://") else { continue }
        let host = GitCredentialRequest.hostname(of: DockerCredentialRegistries.hostname(of: trimmed))
        if !GitCredentialRequest.isLoopback(host) { fatalError("a token would go over plain http beyond this host: \(trimmed)") }
    }
    let json = DockerCredential(serverURL: serverURL, token: token).json
    guard let answer = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String], answer["ServerURL"] == serverURL,
        answer["Secret"] == token.value, answer["Username"] == DockerCredential.username
    else { fatalError("get printed what does not read back as its answer: \(json)") }
    return 0
}
