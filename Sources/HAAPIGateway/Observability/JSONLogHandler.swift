import Foundation
import Logging

/// A swift-log handler writing one JSON object per line to standard error: `time` (ISO 8601, UTC), `level`, `label`,
/// `message`, then every metadata key (values as strings; nested values as JSON text). For log collectors; what is
/// logged never holds a secret in any format.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    private let label: String
    private let timestamps: LogTimestamps
    private let write: @Sendable (String) -> Void

    /// Creates a handler writing to standard error.
    /// - Parameter label: The logger's label.
    public init(label: String) {
        self.init(label: label, timestamps: .shared) { StandardErrorLines.emit($0 + "\n") }
    }

    /// Creates a handler writing its lines (without their line feed) to `write`, with the time from `timestamps`.
    init(label: String, timestamps: LogTimestamps, write: @escaping @Sendable (String) -> Void) {
        self.label = label
        self.timestamps = timestamps
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: String] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            object[key] = Self.text(value)
        }
        object["time"] = timestamps.utc
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = event.message.description
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        write(String(decoding: data, as: UTF8.self))
    }

    private static func text(_ value: Logger.MetadataValue) -> String {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): convertible.description
        case .array, .dictionary: value.description
        }
    }
}
