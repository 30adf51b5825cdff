import ArgumentParser
import Foundation
import HAAPI
import HAAPIHostTools

/// `--token-file`, shared by `login`, `keep` and `logout`.
struct TokenFileOption: ParsableArguments {
    @Option(name: .customLong("token-file"), help: .valued("file", HostToolOptionHelp.tokenFile))
    var tokenFile: String?

    /// The file in use, as an absolute path.
    var path: String { tokenFile.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? TokenFile.defaultPath() }

    /// The tokens in the file and when it was written; exits 78 when it cannot be read.
    func read() -> (tokens: OAuthTokens, written: Date) {
        do {
            return try TokenFile.read(path)
        } catch {
            exitWith("haapi-gateway: \(error.message)", status: 78)
        }
    }
}
