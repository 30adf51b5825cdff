import Foundation

/// Where the token model goes when a sign-in ends. Written in configuration as a URI:
/// `file:PATH`, `https://…` / `http://…` (webhook), or `exec:PROGRAM`.
public enum CallbackSinkConfiguration: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Write the result as JSON to a file: mode 0600, atomic rename.
    case file(path: String)
    /// POST the result as JSON, signed with HMAC-SHA256 over timestamp and body using `secret` (and, while a rotation
    /// is under way, also with `previousSecret`, so receivers still on it verify); retried with backoff.
    case webhook(url: URL, secret: String, previousSecret: String? = nil)
    /// Run a program with the result as JSON on standard input (never in arguments or environment).
    case exec(program: String)

    /// Parses `file:PATH`, `exec:/absolute/program` or an `http(s)://` webhook URL (its secret is configured separately:
    /// the caller builds the webhook sink with it).
    /// - Parameters:
    ///   - text: The sink as written.
    ///   - resolvingFile: Makes a `file:` path that is not absolute into one, as every path setting is (against the
    ///     configuration file's directory when written there, else the working directory). Without it such a path is
    ///     refused. An `exec:` program is always named by its absolute path.
    /// - Returns: The sink, or an error saying what is wrong with the text.
    public static func parse(
        _ text: String,
        resolvingFile: ((String) -> String)? = nil
    ) -> Result<CallbackSinkConfiguration, ConfigurationError> {
        let lowered = text.lowercased()
        if lowered.hasPrefix("file:") || lowered.hasPrefix("exec:") {
            let isFile = lowered.hasPrefix("file:")
            var path = String(text.dropFirst(5))
            if isFile, let resolvingFile, !path.isEmpty, !path.hasPrefix("/"), !path.hasSuffix("/") { path = resolvingFile(path) }
            guard path.hasPrefix("/"), !path.hasSuffix("/") else {
                let needs = isFile && resolvingFile != nil ? "a file name" : "an absolute path"
                return .failure(ConfigurationError(problems: ["\(text.prefix(5))PATH needs \(needs), got '\(text)'"]))
            }
            return .success(isFile ? .file(path: path) : .exec(program: path))
        }
        if lowered.hasPrefix("https://") || lowered.hasPrefix("http://") {
            guard let url = URL(string: text), !(url.host ?? "").isEmpty, url.user == nil, url.password == nil else {
                let shown = SecretRedaction.redactingURLPasswords(in: text)
                return .failure(ConfigurationError(problems: ["'\(shown)' is not a valid webhook URL (no credentials in the URL)"]))
            }
            return .success(.webhook(url: url, secret: ""))
        }
        return .failure(ConfigurationError(problems: ["'\(text)' is not a callback: use file:PATH, exec:PROGRAM or an https:// webhook URL"]))
    }

    /// A secret-free description (`webhook:https://host/path` without query).
    public var description: String {
        switch self {
        case .file(let path): "file:\(path)"
        case .exec(let program): "exec:\(program)"
        case .webhook(let url, _, _): "webhook:\(url.scheme ?? "https")://\(url.host ?? "")\(url.port.map { ":\($0)" } ?? "")\(url.path)"
        }
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// No members, so that `dump` shows ``description`` alone and no secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .enum) }
}
