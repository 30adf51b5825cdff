import Foundation

@testable import HAAPIHostTools

/// A token of the sign-in, as the helper hands it over.
private let token = CredentialHelperToken(value: "id-token", expiry: Date(timeIntervalSince1970: 1_900_000_000))

/// libFuzzer entry point: any bytes as `KUBERNETES_EXEC_INFO` (``ExecCredentialVersion/requested(by:)``, the text as the
/// environment gives it, invalid UTF-8 repaired). A version asked for is one the helper answers, and the
/// `ExecCredential` printed for it reads back with that `apiVersion`; a refusal's message stays one line.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKubernetesExecInfo(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let text = String(decoding: UnsafeRawBufferPointer(start: start, count: count), as: UTF8.self)
    switch ExecCredentialVersion.requested(by: text) {
    case .success(let version):
        let json = ExecCredential(version: version, token: token).json
        guard let object = try? JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any],
            object["apiVersion"] as? String == version.rawValue, object["kind"] as? String == "ExecCredential",
            (object["status"] as? [String: Any])?["token"] as? String == token.value
        else { fatalError("the ExecCredential printed does not read back: \(json)") }
    case .failure(let problem):
        if problem.message.contains(where: \.isNewline) { fatalError("the refusal of KUBERNETES_EXEC_INFO is not one line") }
    }
    return 0
}
