import Foundation
import Yams

/// Reads a YAML configuration file into raw values by key path: sections of keys, each a scalar, a list of scalars or
/// a list of records (mappings of scalars).
/// Unknown sections and keys, and values of the wrong shape, are problems with their line number. Empty values
/// (`key:` with nothing after it, or `null`) count as not set.
enum YAMLConfigurationFile {
    /// The largest configuration file read (a configuration is a few KiB; anything larger is a mistake).
    static let maximumBytes = 1 << 20

    /// Reads and flattens the file at `path`.
    /// - Returns: The values and the problems found; a file that cannot be read or parsed is one problem.
    static func read(path: String) -> (values: [String: ConfigurationValue], problems: [String]) {
        guard let data = FileManager.default.contents(atPath: path) else {
            return ([:], ["configuration file \(path) cannot be read" + (FileAccess.reason(reading: path).map { ": \($0)" } ?? "")])
        }
        guard data.count <= maximumBytes else { return ([:], ["configuration file \(path) is larger than 1 MiB"]) }
        guard let text = String(data: data, encoding: .utf8) else { return ([:], ["configuration file \(path) is not UTF-8 text"]) }
        return parse(text, path: path)
    }

    /// Flattens YAML text; `path` names the file in messages.
    static func parse(_ text: String, path: String) -> (values: [String: ConfigurationValue], problems: [String]) {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            return ([:], ["configuration file \(path) is not valid YAML: \(describe(error))"])
        } catch {
            return ([:], ["configuration file \(path) is not valid YAML"])
        }
        guard let root else { return ([:], []) }
        guard let sections = root.mapping else {
            return ([:], ["\(location(path, root)): the configuration must be a mapping of sections (server, upstream, …)"])
        }
        var values: [String: ConfigurationValue] = [:]
        var problems: [String] = []
        for (sectionNode, body) in sections {
            let section = sectionNode.string ?? ""
            guard ConfigurationKey.sections.contains(section) else {
                problems.append(
                    "\(location(path, sectionNode)): unknown section '\(section)'\(suggestion(for: section, among: ConfigurationKey.sections))"
                )
                continue
            }
            if isNull(body) { continue }
            guard let keys = body.mapping else {
                problems.append("\(location(path, body)): section '\(section)' must be a mapping of keys")
                continue
            }
            for (keyPath, keyNode, valueNode) in entries(of: keys, in: section, path: path, problems: &problems) {
                guard let key = ConfigurationKey.byPath[keyPath] else {
                    let prefix = keyPath.prefix(upTo: keyPath.lastIndex(of: ".")!)
                    let names = ConfigurationKey.all.filter { $0.path.hasPrefix(prefix + ".") }.map { String($0.path.dropFirst(prefix.count + 1)) }
                    let name = String(keyPath.dropFirst(prefix.count + 1))
                    problems.append("\(location(path, keyNode)): unknown key '\(keyPath)'\(suggestion(for: name, among: names))")
                    continue
                }
                if isNull(valueNode) { continue }
                if let value = value(of: valueNode, for: key, path: path, problems: &problems) { values[keyPath] = value }
            }
        }
        return (values, problems)
    }

    /// The value of `key` in `node`, in the shape its kind takes (a scalar, a list of scalars, or a list of records; a
    /// scalar for a list is split at commas); nil, with the problem added, for another shape.
    private static func value(of node: Node, for key: ConfigurationKey, path: String, problems: inout [String]) -> ConfigurationValue? {
        let keyPath = key.path
        let origin = ConfigurationValue.Origin.file(path: path, line: line(of: node))
        switch (key.kind, node) {
        case (.list, .sequence(let sequence)):
            var items: [String] = []
            for item in sequence {
                guard case .scalar(let scalar) = item else {
                    problems.append("\(location(path, item)): '\(keyPath)' must be a list of plain values")
                    continue
                }
                items.append(scalar.string)
            }
            return ConfigurationValue(.list(items), origin: origin)
        case (.records, .sequence(let sequence)):
            return ConfigurationValue(.records(records(in: sequence, of: keyPath, path: path, problems: &problems)), origin: origin)
        case (.records, _):
            problems.append("\(location(path, node)): '\(keyPath)' must be a list of mappings (one per entry)")
        case (.list, .scalar(let scalar)):
            return ConfigurationValue(.list(scalar.string.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }), origin: origin)
        case (_, .scalar(let scalar)):
            return ConfigurationValue(.scalar(scalar.string), origin: origin)
        default:
            problems.append("\(location(path, node)): '\(keyPath)' must be a single value, not a \(node.isMapping ? "mapping" : "list")")
        }
        return nil
    }

    /// The records of a list of mappings of plain values (`devices.clients`); an entry or field of another shape is a
    /// problem and left out.
    private static func records(in sequence: Node.Sequence, of keyPath: String, path: String, problems: inout [String]) -> [ConfigurationRecord] {
        var records: [ConfigurationRecord] = []
        for item in sequence {
            guard let mapping = item.mapping else {
                problems.append("\(location(path, item)): each entry of '\(keyPath)' must be a mapping of names to values")
                continue
            }
            var fields: [String: String] = [:]
            for (nameNode, fieldNode) in mapping {
                guard let name = nameNode.string, case .scalar(let scalar) = fieldNode else {
                    problems.append("\(location(path, fieldNode)): each field of an entry of '\(keyPath)' must be a plain value")
                    continue
                }
                if !isNull(fieldNode) { fields[name] = scalar.string }
            }
            records.append(ConfigurationRecord(fields: fields, line: line(of: item)))
        }
        return records
    }

    /// A section's keys by path, with the keys of a group (a mapping under a name that only prefixes keys, such as
    /// `upstream.endpoints`) taken one by one (`upstream.endpoints.token`).
    private static func entries(of keys: Node.Mapping, in section: String, path: String, problems: inout [String]) -> [(String, Node, Node)] {
        var entries: [(String, Node, Node)] = []
        for (keyNode, valueNode) in keys {
            let keyPath = "\(section).\(keyNode.string ?? "")"
            guard ConfigurationKey.byPath[keyPath] == nil, ConfigurationKey.groups.contains(keyPath) else {
                entries.append((keyPath, keyNode, valueNode))
                continue
            }
            if isNull(valueNode) { continue }
            guard let members = valueNode.mapping else {
                problems.append("\(location(path, valueNode)): '\(keyPath)' must be a mapping of keys")
                continue
            }
            for (memberNode, memberValue) in members { entries.append(("\(keyPath).\(memberNode.string ?? "")", memberNode, memberValue)) }
        }
        return entries
    }

    private static func isNull(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node else { return false }
        return scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    private static func line(of node: Node) -> Int { (node.mark?.line ?? 0) }

    private static func location(_ path: String, _ node: Node) -> String { "\(path):\(line(of: node))" }

    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _), .composer(_, let problem, let mark, _):
            return "line \(mark.line): \(problem)"
        case .duplicatedKeysInMapping(let duplicates, let context):
            return "line \(context.mark.line): the key '\(duplicates.joined(separator: "', '"))' appears twice"
        default:
            return "\(error)".split(separator: "\n").first.map(String.init) ?? "syntax error"
        }
    }

    /// " (did you mean 'x'?)" when a known name is one or two edits away.
    static func suggestion(for name: String, among names: [String]) -> String {
        let best = names.map { ($0, editDistance(name.lowercased(), $0.lowercased())) }.min { $0.1 < $1.1 }
        guard let best, best.1 <= 2 else { return "" }
        return " (did you mean '\(best.0)'?)"
    }

    private static func editDistance(_ lhs: String, _ rhs: String) -> Int {
        let left = Array(lhs)
        let right = Array(rhs)
        guard !left.isEmpty else { return right.count }
        guard !right.isEmpty else { return left.count }
        var previous = Array(0...right.count)
        for i in 1...left.count {
            var current = [i] + Array(repeating: 0, count: right.count)
            for j in 1...right.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (left[i - 1] == right[j - 1] ? 0 : 1))
            }
            previous = current
        }
        return previous[right.count]
    }
}

extension Node {
    fileprivate var isMapping: Bool {
        if case .mapping = self { return true }
        return false
    }
}
