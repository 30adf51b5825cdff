import Foundation
import Logging
import OTel

/// A swift-log handler writing one JSON object per line to standard error: `time` (ISO 8601, UTC), `level`, `label`,
/// `message`, then every metadata key. A value logged as a number or a boolean (`.stringConvertible(200)`, as the
/// request line's `status` is) is a JSON number or boolean, a list a JSON array, a dictionary a JSON object, and
/// anything else a string: a collector can compare and sum without parsing text. For log collectors; what is logged
/// never holds a secret in any format. A line logged within a span (tracing on) carries its `trace_id` and `span_id`.
public struct JSONLogHandler: LogHandler {
    /// The trace and span ids of the span current where a line is logged, as OpenTelemetry names them.
    private static let traceIDs = OTel.makeLoggingMetadataProvider()

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
        var object: [String: Any] = [:]
        for (key, value) in metadata.merging(event.metadata ?? [:], uniquingKeysWith: { _, new in new }) {
            object[key] = Self.json(value)
        }
        for (key, value) in Self.traceIDs.get() where key != "trace_flags" { object[key] = Self.json(value) }
        object["time"] = timestamps.utc
        object["level"] = event.level.rawValue
        object["label"] = label
        object["message"] = event.message.description
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        write(String(decoding: data, as: UTF8.self))
    }

    /// A metadata value as `JSONSerialization` writes it.
    static func json(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let string): string
        case .stringConvertible(let convertible): number(convertible) ?? convertible.description
        case .array(let values): values.map(json)
        case .dictionary(let members): members.mapValues(json)
        }
    }

    /// A boolean, a whole number or a finite floating-point number as itself; nil for anything else (written as its
    /// text). A whole number too large for `Int` is written as text, never rounded.
    private static func number(_ value: any CustomStringConvertible & Sendable) -> Any? {
        switch value {
        case let boolean as Bool: boolean
        case let integer as any BinaryInteger: Int(exactly: integer)
        case let double as Double: double.isFinite ? double : nil
        case let float as Float: float.isFinite ? Double(float) : nil
        default: nil
        }
    }
}
