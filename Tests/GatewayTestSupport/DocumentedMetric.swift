import Foundation

/// A metric series as `docs/operations.md` documents it (a row of its § Metrics table): its name, Prometheus type, and
/// the label with the values it is known to take. The metrics tests check an exposition against every row.
struct DocumentedMetric: Sendable, Equatable {
    /// The series' name, `haapi_gateway_…`.
    let name: String
    /// `counter`, `gauge` or `histogram`.
    let type: String
    /// The label, when the series has one.
    let label: String?
    /// The label's values listed with it.
    let values: [String]

    /// The rows of the § Metrics table of `docs/operations.md`.
    static func all() throws -> [DocumentedMetric] {
        let text = try String(contentsOf: Repository.root.appendingPathComponent("docs/operations.md"), encoding: .utf8)
        guard let section = text.components(separatedBy: "\n## Metrics\n").dropFirst().first?.components(separatedBy: "\n## ").first else {
            return []
        }
        return section.split(separator: "\n").filter { $0.hasPrefix("| `haapi_gateway_") }.map { row in
            let cells = row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
            let labels = Self.quoted(cells[2])
            return DocumentedMetric(name: Self.quoted(cells[0])[0], type: cells[1], label: labels.first, values: Array(labels.dropFirst()))
        }
    }

    /// What a fresh gateway's `exposition` lacks, a line per problem: a documented series or label value not there at 0
    /// (a gauge at any value; for a histogram, its `_count` at 0 and its `_sum`), a type other than documented, or a
    /// `haapi_gateway_` series the table does not document.
    static func problems(in exposition: String, against documented: [DocumentedMetric]) -> [String] {
        let lines = exposition.split(separator: "\n").map(String.init)
        let samples = Set(lines.filter { !$0.hasPrefix("#") })
        var problems: [String] = []
        for metric in documented {
            if !lines.contains("# TYPE \(metric.name) \(metric.type)") { problems.append("\(metric.name): not there as a \(metric.type)") }
            let selectors = metric.label.map { label in metric.values.map { "{\(label)=\"\($0)\"}" } } ?? [""]
            for selector in selectors {
                switch metric.type {
                case "histogram":
                    if !samples.contains("\(metric.name)_count\(selector) 0") { problems.append("\(metric.name)_count\(selector) 0: missing") }
                    if !samples.contains(where: { $0.hasPrefix("\(metric.name)_sum\(selector) ") }) {
                        problems.append("\(metric.name)_sum\(selector): missing")
                    }
                case "gauge":
                    if !samples.contains(where: { $0.hasPrefix("\(metric.name)\(selector) ") && Double($0.split(separator: " ").last ?? "") != nil })
                    {
                        problems.append("\(metric.name)\(selector): missing")
                    }
                default:
                    if !samples.contains("\(metric.name)\(selector) 0") { problems.append("\(metric.name)\(selector) 0: missing") }
                }
            }
        }
        let names = Set(documented.map(\.name))
        for line in lines where line.hasPrefix("# TYPE haapi_gateway_") {
            let name = String(line.split(separator: " ")[2])
            if !names.contains(name) { problems.append("\(name): in the exposition, not in docs/operations.md") }
        }
        return problems
    }

    /// The `backticked` words of a table cell, in order.
    private static func quoted(_ cell: String) -> [String] {
        cell.split(separator: "`", omittingEmptySubsequences: false).enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
    }
}
