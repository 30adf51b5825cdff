import Foundation

/// One `credential.helper` or `credential.<url>.helper` value of git's configuration, in the order git reads them, as
/// `git config --null --show-origin --get-regexp` lists them: where it is set (`file:/home/u/.gitconfig`, `command line:`),
/// the URL it is scoped to, if any, and the helper.
public struct GitCredentialHelperEntry: Sendable, Equatable {
    /// Where it is set, as git names it.
    public let origin: String
    /// The `<url>` of `credential.<url>.helper`; nil for `credential.helper`, which applies to every request.
    public let urlPattern: String?
    /// The helper: empty (which drops the helpers before it), a name (`store`: `git credential-store`), or `!command`.
    public let helper: String

    public init(origin: String, urlPattern: String?, helper: String) {
        self.origin = origin
        self.urlPattern = urlPattern
        self.helper = helper
    }

    /// The entries in `output` of `git config --null --show-origin --get-regexp '^credential\..*helper$'`: records of
    /// `origin NUL key LF value NUL`. Keys other than a helper's are skipped; so is a record cut short.
    public static func parse(_ output: Data) -> [Self] {
        // Every field ends with a NUL: what follows the last one is a record cut short (or nothing).
        let fields = output.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
        var entries: [Self] = []
        var index = 0
        while index + 1 < fields.count {
            let origin = fields[index]
            let keyAndValue = fields[index + 1]
            index += 2
            let key = keyAndValue.prefix { $0 != "\n" }
            let value = keyAndValue.count > key.count ? String(keyAndValue.dropFirst(key.count + 1)) : ""
            guard key.hasPrefix("credential."), key.hasSuffix(".helper") || key == "credential.helper" else { continue }
            let middle = key.dropFirst("credential.".count).dropLast("helper".count)
            let pattern = middle.isEmpty ? nil : String(middle.dropLast())
            entries.append(Self(origin: origin, urlPattern: pattern, helper: value))
        }
        return entries
    }

    /// Whether git applies it to `request`. git matches the URL's scheme, host (a `*` matching within one label) and
    /// port (gitcredentials(7), "CREDENTIAL CONTEXTS"); this errs towards applying: a pattern without a scheme or a port
    /// matches any, and its path and user name are not compared, so that no helper that might receive a token is missed.
    public func applies(to request: GitCredentialRequest) -> Bool {
        guard let urlPattern else { return true }
        var rest = Substring(urlPattern)
        if let separator = rest.range(of: "://") {
            guard rest[..<separator.lowerBound].lowercased() == (request.scheme ?? "") else { return false }
            rest = rest[separator.upperBound...]
        }
        rest = rest.prefix { $0 != "/" }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        let patternHost = GitCredentialRequest.hostname(of: String(rest)).lowercased()
        let requestHost = request.host.map { GitCredentialRequest.hostname(of: $0).lowercased() } ?? ""
        guard Self.hostMatches(pattern: patternHost, requestHost) else { return false }
        guard let patternPort = Self.port(of: String(rest)) else { return true }
        return patternPort == (request.host.flatMap(Self.port(of:)) ?? (request.scheme == "http" ? "80" : "443"))
    }

    /// Whether it is `haapi-gateway git-credential` (`!<path to haapi-gateway…> git-credential`), by any path.
    public var isThisGateway: Bool {
        guard helper.hasPrefix("!") else { return false }
        let words = helper.dropFirst().split(separator: " ", omittingEmptySubsequences: true)
        guard words.count >= 2, words[1] == "git-credential" else { return false }
        return words[0].split(separator: "/").last?.hasPrefix("haapi-gateway") == true
    }

    /// The `:port` of `host`, if it has one.
    static func port(of host: String) -> String? {
        let hostname = GitCredentialRequest.hostname(of: host)
        guard host.count > hostname.count + 1 else { return nil }
        return String(host.dropFirst(hostname.count + 1))
    }

    /// Whether `host` matches `pattern` label by label, a `*` in a label matching any run of characters within it.
    static func hostMatches(pattern: String, _ host: String) -> Bool {
        let patternLabels = pattern.split(separator: ".", omittingEmptySubsequences: false)
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard patternLabels.count == labels.count else { return false }
        return zip(patternLabels, labels).allSatisfy { labelMatches(pattern: Substring($0), Substring($1)) }
    }

    /// Whether `label` matches `pattern`, whose `*` matches any run of characters.
    private static func labelMatches(pattern: Substring, _ label: Substring) -> Bool {
        guard let star = pattern.firstIndex(of: "*") else { return pattern == label }
        let head = pattern[..<star]
        guard label.hasPrefix(head) else { return false }
        let tail = pattern[pattern.index(after: star)...]
        var rest = label.dropFirst(head.count)
        while true {
            if labelMatches(pattern: tail, rest) { return true }
            guard !rest.isEmpty else { return false }
            rest = rest.dropFirst()
        }
    }
}
