import Foundation
import HAAPIGateway

/// The host `setup-git --host` configures, and the git configuration that makes `git-credential` its only credential
/// helper, as `gh auth setup-git` does (cli/cli `pkg/cmd/auth/shared/gitcredentials/helper_config.go`): first an empty
/// `credential.<url>.helper` (`--replace-all`: it replaces every earlier value of the key, and an empty helper drops
/// the helpers configured before it for that URL, the system's and the global `credential.helper` among them, so that
/// none of them is asked or stores the token), then `!<this executable> git-credential` (`--add`). Run twice, it leaves
/// the same two values.
///
/// `--host` is a host name or address with an optional `:port` (`https://` is meant), or an `https://` URL of the host
/// without a path; an `http://` URL only for a loopback host (`localhost`, `127.x.x.x`, `[::1]`), where the token never
/// crosses a network.
public struct GitCredentialHost: Sendable, Equatable {
    /// The URL git matches requests against: `https://host[:port]`, or `http://` with a loopback host.
    public let url: String

    /// The host in `value`, or what is wrong with it.
    public static func parse(_ value: String) -> Result<Self, HostTokenProblem> {
        var rest = value
        var scheme = "https"
        for prefix in ["https://", "http://"] where rest.lowercased().hasPrefix(prefix) {
            scheme = String(prefix.dropLast(3))
            rest = String(rest.dropFirst(prefix.count))
        }
        if rest.hasSuffix("/") { rest.removeLast() }
        let allowed = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-:[]")
        guard !rest.isEmpty, rest.unicodeScalars.allSatisfy(allowed.contains), !rest.hasPrefix(":"), !rest.hasPrefix(".") else {
            return .failure(
                HostTokenProblem("--host must be a host, host:port or https://host[:port] without a path, not \(LogText.untrusted(value))")
            )
        }
        let host = rest.lowercased()
        guard scheme == "https" || GitCredentialRequest.isLoopback(GitCredentialRequest.hostname(of: host)) else {
            return .failure(
                HostTokenProblem(
                    "--host \(LogText.untrusted(value)): plain http would send the token in clear; it is accepted for loopback hosts only"
                )
            )
        }
        return .success(Self(url: "\(scheme)://\(host)"))
    }

    /// `credential.<url>.helper`.
    public var configurationKey: String { "credential.\(url).helper" }

    /// The helper's value: `!`, the executable (quoted for the shell when it needs to be) and `git-credential`.
    public static func helper(executable: String) -> String {
        "!" + shellQuoted(executable) + " git-credential"
    }

    /// The `git` arguments, in order, that configure the helper for this host in the user's global configuration.
    public func gitArguments(executable: String) -> [[String]] {
        [
            ["config", "--global", "--replace-all", configurationKey, ""],
            ["config", "--global", "--add", configurationKey, Self.helper(executable: executable)],
        ]
    }

    /// `word` as one word for the shell git runs a `!` helper with: as it is when it holds only characters the shell
    /// takes literally, else in single quotes.
    static func shellQuoted(_ word: String) -> String {
        let plain = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+,@%=")
        if !word.isEmpty, word.unicodeScalars.allSatisfy(plain.contains) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}
