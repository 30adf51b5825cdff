import Foundation
import HAAPI

@testable import HAAPIHostTools

/// When the file was written, as its time says.
private let written = Date(timeIntervalSince1970: 1_800_000_000)

/// The file's path, for the messages.
private let path = "/home/person/.config/haapi-gateway/tokens.json"

/// libFuzzer entry point: any bytes as the token file (``TokenFile/tokens(in:path:)``, with its demo mark and origin)
/// and what the commands that read it apply to what it holds: whether the tokens stay valid (``TokenKeeper``), the ID
/// token's claims (``IDTokenClaims``), the tokens a helper hands over (``CredentialHelperToken``, checked by
/// ``HostTokenText``) and what `git-credential`, `docker-credential` and `kube-credential` print with them. A token
/// handed over holds printable ASCII without a space only, and what is printed stays one line (git's: one line per key)
/// that reads back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTokenFile(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let data = Data(bytes: start, count: count)
    _ = TokenFile.issuedByEmbeddedDemo(in: data)
    _ = TokenFile.origin(in: data)
    guard let tokens = try? TokenFile.tokens(in: data, path: path) else { return 0 }
    if let expiresIn = tokens.expiresIn, !(0...TokenLifetime.maximumSeconds).contains(expiresIn) {
        fatalError("a lifetime beyond its bounds was read: \(expiresIn)")
    }
    for minimum in [0, CredentialHelperToken.minimumValidSeconds, 86_400] {
        _ = TokenKeeper.areValid(tokens, writtenAt: written, for: minimum, now: written)
        if let validity = CredentialHelperToken.accessValidityForFreshIDToken(tokens, writtenAt: written, minimum: minimum, now: written) {
            _ = TokenKeeper.areValid(tokens, writtenAt: written, for: validity, now: written)
        }
    }
    _ = TokenKeeper.refreshDue(for: tokens, writtenAt: written)
    _ = IDTokenClaims.subject(of: tokens.idToken)
    for what in [tokens.accessToken, tokens.idToken ?? ""] {
        if case .success(let usable) = HostTokenText.checked(what, what: "access token", path: path),
            !usable.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        {
            fatalError("a token with a character a header cannot carry was handed over")
        }
    }
    if case .success(let token) = CredentialHelperToken.accessToken(of: tokens, writtenAt: written, path: path, tool: "git") {
        let answer = GitCredentialAnswer(token: token).text
        guard answer.hasSuffix("\n"), answer.dropLast().split(separator: "\n").allSatisfy({ $0.contains("=") && !$0.contains("\r") }),
            answer.contains("\npassword=\(token.value)\n")
        else { fatalError("git-credential's answer is not key=value lines with the token: \(answer)") }
        let docker = DockerCredential(serverURL: "registry.example", token: token).json
        guard let object = try? JSONSerialization.jsonObject(with: Data(docker.utf8)) as? [String: String], object["Secret"] == token.value else {
            fatalError("docker-credential's answer does not read back: \(docker)")
        }
        execCredential(token)
    }
    if case .success(let token) = CredentialHelperToken.idToken(of: tokens, path: path, now: written) {
        execCredential(token)
    }
    return 0
}

/// What `kube-credential` prints with `token`, which must read back as one line with the token and its expiry.
private func execCredential(_ token: CredentialHelperToken) {
    let json = ExecCredential(version: .v1, token: token).json
    guard !json.contains("\n"), let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
        let status = object["status"] as? [String: Any], status["token"] as? String == token.value,
        (token.expiry == nil) == (status["expirationTimestamp"] == nil)
    else { fatalError("kube-credential's answer does not read back: \(json)") }
}
