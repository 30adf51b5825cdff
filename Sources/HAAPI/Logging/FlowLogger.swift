import Logging

/// A logger that adds one `key=value` (a flow's id) to every line it writes. Setting that metadata on a copy of a
/// `Logger` gives every holder its own metadata dictionary and handler box, about 360 bytes for each open sign-in
/// (twice: the HAAPI flow's and the gateway's; a heap profile, `artifacts/profiles/`); this holds the shared logger
/// and the id, and adds the id to a line only when the line is written.
package struct FlowLogger: Sendable {
    /// The logger lines go to.
    private let base: Logger
    private let key: String
    private let value: String

    /// - Parameters:
    ///   - base: The logger lines go to.
    ///   - key: The metadata key, such as `flow`.
    ///   - value: Its value on every line (a line's own metadata of that key wins).
    package init(_ base: Logger, key: String, value: String) {
        self.base = base
        self.key = key
        self.value = value
    }

    /// Writes a line at `level`, with the id added.
    package func log(
        level: Logger.Level,
        _ message: @autoclosure () -> Logger.Message,
        metadata: @autoclosure () -> Logger.Metadata? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        base.log(level: level, message(), metadata: tagged(metadata()), file: file, function: function, line: line)
    }

    package func trace(
        _ message: @autoclosure () -> Logger.Message,
        metadata: @autoclosure () -> Logger.Metadata? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        log(level: .trace, message(), metadata: metadata(), file: file, function: function, line: line)
    }

    package func debug(
        _ message: @autoclosure () -> Logger.Message,
        metadata: @autoclosure () -> Logger.Metadata? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        log(level: .debug, message(), metadata: metadata(), file: file, function: function, line: line)
    }

    package func info(
        _ message: @autoclosure () -> Logger.Message,
        metadata: @autoclosure () -> Logger.Metadata? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        log(level: .info, message(), metadata: metadata(), file: file, function: function, line: line)
    }

    package func notice(
        _ message: @autoclosure () -> Logger.Message,
        metadata: @autoclosure () -> Logger.Metadata? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        log(level: .notice, message(), metadata: metadata(), file: file, function: function, line: line)
    }

    package func warning(
        _ message: @autoclosure () -> Logger.Message,
        metadata: @autoclosure () -> Logger.Metadata? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        log(level: .warning, message(), metadata: metadata(), file: file, function: function, line: line)
    }

    package func error(
        _ message: @autoclosure () -> Logger.Message,
        metadata: @autoclosure () -> Logger.Metadata? = nil,
        file: String = #fileID,
        function: String = #function,
        line: UInt = #line
    ) {
        log(level: .error, message(), metadata: metadata(), file: file, function: function, line: line)
    }

    private func tagged(_ metadata: Logger.Metadata?) -> Logger.Metadata {
        var metadata = metadata ?? [:]
        if metadata[key] == nil { metadata[key] = .string(value) }
        return metadata
    }
}
