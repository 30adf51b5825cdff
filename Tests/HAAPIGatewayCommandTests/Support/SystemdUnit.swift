import Foundation

/// A systemd unit file as its settings: each section's keys with their values in order (a key set twice has two), the
/// header's comment lines without their `# `, for a test that starts what the unit starts as systemd would.
struct SystemdUnit {
    /// The comment lines before the first section, without `#` and one space.
    let header: [String]
    private let sections: [String: [(key: String, value: String)]]

    init(contentsOf url: URL) throws {
        var header: [String] = []
        var sections: [String: [(key: String, value: String)]] = [:]
        var section: String?
        for raw in try String(contentsOf: url, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#") {
                if section == nil {
                    let text = line.dropFirst()
                    header.append(String(text.hasPrefix(" ") ? text.dropFirst() : text))
                }
                continue
            }
            if line.hasPrefix("["), line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
                continue
            }
            guard let section, let equals = line.firstIndex(of: "=") else { continue }
            sections[section, default: []].append((String(line[..<equals]), String(line[line.index(after: equals)...])))
        }
        self.header = header
        self.sections = sections
    }

    /// Every value of `key` in `section`, in order.
    func values(_ key: String, in section: String = "Service") -> [String] {
        (sections[section] ?? []).filter { $0.key == key }.map(\.value)
    }

    /// The last value of `key` in `section`.
    func value(_ key: String, in section: String = "Service") -> String? {
        values(key, in: section).last
    }

    /// `Environment=` as variables (each value holds one `NAME=value`).
    var environment: [String: String] {
        var variables: [String: String] = [:]
        for assignment in values("Environment") {
            guard let equals = assignment.firstIndex(of: "=") else { continue }
            variables[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
        return variables
    }

    /// `LoadCredential=` as (credential name, source path).
    var credentials: [(name: String, source: String)] {
        values("LoadCredential").compactMap { entry in
            guard let colon = entry.firstIndex(of: ":") else { return nil }
            return (String(entry[..<colon]), String(entry[entry.index(after: colon)...]))
        }
    }

    /// A time setting in seconds (`45`, `45s`, `1min`).
    func seconds(_ key: String) -> Int? {
        guard let text = value(key) else { return nil }
        if text.hasSuffix("min"), let minutes = Int(text.dropLast(3)) { return minutes * 60 }
        return Int(text.hasSuffix("s") ? String(text.dropLast()) : text)
    }
}
