import Foundation

/// Reads typed values out of merged ``ConfigurationLayers``, collecting a problem (with the value's origin) for every
/// value that does not fit instead of stopping at the first. Secret values never appear in a problem. Every value is
/// read by its declared key (``ConfigurationKey/all``), which carries its range and default: a setting that is not
/// declared cannot be read (there is no key to name it by).
struct ConfigurationReader {
    private let values: [String: ConfigurationValue]
    var problems: [String]
    /// How many of ``problems`` are files or directories that are missing or cannot be read.
    var unreadableInputs = 0

    init(_ layers: ConfigurationLayers) {
        self.values = layers.values
        self.problems = layers.problems.map(SecretRedaction.redactingURLPasswords)
    }

    /// Whether the key was set by any source.
    func isSet(_ key: ConfigurationKey) -> Bool { values[key.path] != nil }

    /// Where a key was set, for messages.
    func origin(_ key: ConfigurationKey) -> String { values[key.path].map { " (\($0.origin))" } ?? "" }

    /// Records a problem about a key, naming where it was set; `unreadableInput` when it is a file or directory that is
    /// missing or cannot be read. A URL quoted in it is shown without its password (``SecretRedaction``).
    mutating func problem(_ key: ConfigurationKey, _ message: String, unreadableInput: Bool = false) {
        problem(about: "\(key.path)\(origin(key))", message, unreadableInput: unreadableInput)
    }

    /// Records a problem about a whole section (`templates`, `upstream`) rather than one of its keys.
    mutating func problem(inSection section: String, _ message: String, unreadableInput: Bool = false) {
        problem(about: section, message, unreadableInput: unreadableInput)
    }

    private mutating func problem(about subject: String, _ message: String, unreadableInput: Bool) {
        problems.append(SecretRedaction.redactingURLPasswords(in: "\(subject): \(message)"))
        if unreadableInput { unreadableInputs += 1 }
    }

    mutating func string(_ key: ConfigurationKey) -> String? {
        guard let value = values[key.path] else { return nil }
        switch value.content {
        case .scalar(let text): return text
        case .list, .records:
            problem(key, "must be a single value, not a list")
            return nil
        }
    }

    mutating func list(_ key: ConfigurationKey) -> [String]? {
        guard let value = values[key.path] else { return nil }
        switch value.content {
        case .list(let items): return items
        case .scalar(let text): return text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        case .records:
            problem(key, "must be a list of plain values, not of mappings")
            return nil
        }
    }

    /// A list of IP addresses or CIDR blocks (`server.trustedProxies`, `tracing.trustedParents`), each entry that is neither
    /// a problem; empty when unset.
    mutating func addressRanges(_ key: ConfigurationKey) -> [IPAddressRange] {
        (list(key) ?? []).compactMap { entry in
            guard let range = IPAddressRange(entry) else {
                problem(key, "'\(entry)' is not an IP address or CIDR block (such as 127.0.0.1 or 10.0.0.0/8)")
                return nil
            }
            return range
        }
    }

    /// A list of records: from a file as written; from an environment variable or flag, a JSON array of objects whose
    /// members are strings.
    mutating func records(_ key: ConfigurationKey) -> [ConfigurationRecord]? {
        guard let value = values[key.path] else { return nil }
        switch value.content {
        case .records(let records): return records
        case .list:
            problem(key, "must be a list of mappings (one per entry), not of plain values")
            return nil
        case .scalar(let text):
            let parsed = text.data(using: .utf8).flatMap { try? JSONSerialization.jsonObject(with: $0) as? [[String: Any]] }
            guard let objects = parsed, objects.allSatisfy({ $0.values.allSatisfy { $0 is String } }) else {
                problem(key, "must be a JSON array of objects whose members are strings, such as [{\"id\":\"build-host\",\"name\":\"Build host\"}]")
                return nil
            }
            return objects.map { ConfigurationRecord(fields: $0.compactMapValues { $0 as? String }) }
        }
    }

    /// The setting's text, else the default its declaration names (``ConfigurationKey/fallback``).
    mutating func stringOrDefault(_ key: ConfigurationKey) -> String {
        string(key) ?? key.fallback ?? ""
    }

    /// The setting's switch, else the default its declaration names (``ConfigurationKey/fallback``).
    mutating func booleanOrDefault(_ key: ConfigurationKey) -> Bool {
        boolean(key, default: key.fallback == "true")
    }

    /// A whole number within the range its key declares (``ConfigurationKey/range``).
    mutating func integer(_ key: ConfigurationKey, default fallback: Int) -> Int {
        let range = key.range ?? Int.min...Int.max
        guard let text = string(key) else { return fallback }
        guard let number = Int(text.trimmingCharacters(in: .whitespaces)) else {
            problem(key, "must be a whole number, got '\(text)'")
            return fallback
        }
        guard range.contains(number) else {
            problem(key, "must be between \(range.lowerBound) and \(range.upperBound), got \(number)")
            return fallback
        }
        return number
    }

    mutating func boolean(_ key: ConfigurationKey, default fallback: Bool) -> Bool {
        guard let text = string(key) else { return fallback }
        switch text.trimmingCharacters(in: .whitespaces).lowercased() {
        case "true", "yes", "on", "1": return true
        case "false", "no", "off", "0": return false
        default:
            problem(key, "must be true or false, got '\(text)'")
            return fallback
        }
    }

    /// An absolute http(s) URL; `suggestion` may add what was probably meant to the problem of a value that is not one.
    mutating func httpURL(_ key: ConfigurationKey, suggestion: (String) -> String? = { _ in nil }) -> URL? {
        guard let text = string(key) else { return nil }
        switch AbsoluteHTTPURL.parse(text) {
        case .success(let url):
            return url
        case .failure(let refusal):
            // The value is quoted with control characters escaped, so a problem line cannot be split or forged, and
            // with a password in its user info redacted.
            let shown = String(reflecting: SecretRedaction.redactingURLPasswords(in: text))
            problem(key, "\(refusal.message), got \(shown)" + (suggestion(text).map { " (\($0))" } ?? ""))
            return nil
        }
    }

    /// A path, resolved against the configuration file's directory when written in the file, else the working directory.
    mutating func filePath(_ key: ConfigurationKey) -> URL? {
        guard let value = values[key.path], let text = string(key) else { return nil }
        guard !text.isEmpty else {
            problem(key, "must not be empty")
            return nil
        }
        let expanded = (text as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL }
        return value.origin.baseDirectory.appendingPathComponent(expanded).standardizedFileURL
    }

    /// A file named inside a value of `key` (a field of a record), resolved like ``filePath(_:)``.
    func filePath(_ text: String, within key: ConfigurationKey) -> URL {
        let expanded = (text as NSString).expandingTildeInPath
        if expanded.hasPrefix("/") { return URL(fileURLWithPath: expanded).standardizedFileURL }
        let base = values[key.path]?.origin.baseDirectory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        return base.appendingPathComponent(expanded).standardizedFileURL
    }

    /// The text of the file `key` names (PEM keys and certificates, secrets).
    mutating func fileContents(_ key: ConfigurationKey) -> String? {
        guard let url = filePath(key) else { return nil }
        guard let data = FileManager.default.contents(atPath: url.path), let text = String(data: data, encoding: .utf8) else {
            problem(key, FileAccess.cannotRead(url.path), unreadableInput: true)
            return nil
        }
        return text
    }

    /// A secret given inline (`key`) or in a file (`fileKey`), at most one of them; trailing newlines of a file are dropped.
    mutating func secret(_ key: ConfigurationKey, fileKey: ConfigurationKey) -> String? {
        if isSet(key), isSet(fileKey) {
            problem(key, "set either \(key.path) or \(fileKey.path), not both")
            return nil
        }
        if isSet(key) {
            guard let secret = string(key), !secret.isEmpty else {
                problem(key, "must not be empty")
                return nil
            }
            return secret
        }
        return secretFile(fileKey)
    }

    /// A secret kept in the file named by `fileKey`, without the file's trailing newlines; an empty file is a problem.
    mutating func secretFile(_ fileKey: ConfigurationKey) -> String? {
        guard let text = fileContents(fileKey) else { return nil }
        let secret = String(text.reversed().drop { $0 == "\n" || $0 == "\r" }.reversed())
        guard !secret.isEmpty else {
            problem(fileKey, "the file is empty")
            return nil
        }
        return secret
    }
}
