import Foundation

/// What a command wrote with `logging.format: json`: every line of it read as a JSON object.
struct JSONLogLines {
    /// The lines that are JSON objects, in order.
    let objects: [[String: Any]]
    /// The lines that are not (none, when every line is a log line).
    let notObjects: [String]

    /// Reads every non-empty line of `text`.
    init(_ text: String) {
        var objects: [[String: Any]] = []
        var notObjects: [String] = []
        for line in text.split(separator: "\n") where !line.isEmpty {
            if let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] {
                objects.append(object)
            } else {
                notObjects.append(String(line))
            }
        }
        self.objects = objects
        self.notObjects = notObjects
    }

    /// A JSON number's value; nil for a string (`"200"`), anything else or nothing.
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let integer as Int: Double(integer)
        case let double as Double: double
        case let number as NSNumber: number.doubleValue
        default: nil
        }
    }
}
