import Logging

/// The gateway's text log lines, `time level label: key=value … [source] message`, exactly as swift-log's
/// `StreamLogHandler` writes them, at a fraction of the cost: the time is formatted once a second (``LogTimestamps``)
/// and a line is one `write(2)` (``StandardErrorLines``). Every request logs one line, so its cost is part of every page.
///
/// One event is one line: every control character of the message, the label and the metadata (a line feed, a carriage
/// return, ESC, NUL, the other C0 and C1 characters, DEL) is written as a visible escape (``LogText``), so that no
/// logged value can end the line and start a forged one.
public struct TextLogHandler: LogHandler {
    public var logLevel: Logger.Level = .info
    public var metadataProvider: Logger.MetadataProvider?
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let timestamps: LogTimestamps
    private let write: @Sendable (String) -> Void

    /// Creates a handler writing to standard error.
    /// - Parameters:
    ///   - label: The logger's label.
    ///   - metadataProvider: Metadata added to every line (swift-log's global provider by default).
    public init(label: String, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
        self.init(label: label, metadataProvider: metadataProvider, timestamps: .shared, write: StandardErrorLines.emit)
    }

    init(
        label: String,
        metadataProvider: Logger.MetadataProvider? = nil,
        timestamps: LogTimestamps,
        write: @escaping @Sendable (String) -> Void
    ) {
        self.label = label
        self.metadataProvider = metadataProvider
        self.timestamps = timestamps
        self.write = write
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let pretty = Self.prettify(effectiveMetadata(event))
        var line = timestamps.local
        line += " "
        line += event.level.rawValue
        if !label.isEmpty {
            line += " "
            line += label
        }
        line += ":"
        if let pretty {
            line += " "
            line += pretty
        }
        line += " ["
        line += event.source
        line += "] "
        line += event.message.description
        write(LogText.escapingControlCharacters(line) + "\n")
    }

    /// The handler's metadata with the provider's, the event's and its error's, later ones winning.
    private func effectiveMetadata(_ event: LogEvent) -> Logger.Metadata {
        let provided = metadataProvider?.get() ?? [:]
        let explicit = event.metadata ?? [:]
        var merged = metadata
        if !provided.isEmpty { merged.merge(provided) { _, new in new } }
        if !explicit.isEmpty { merged.merge(explicit) { _, new in new } }
        if let error = event.error {
            merged["error.message"] = "\(error)"
            merged["error.type"] = "\(String(reflecting: type(of: error)))"
        }
        return merged
    }

    private static func prettify(_ metadata: Logger.Metadata) -> String? {
        guard !metadata.isEmpty else { return nil }
        var text = ""
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            if !text.isEmpty { text += " " }
            text += key
            text += "="
            text += value.description
        }
        return text
    }
}
