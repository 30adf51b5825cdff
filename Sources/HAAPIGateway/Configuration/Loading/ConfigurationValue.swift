import Foundation

/// A raw value from one configuration source, with where it came from (for problem messages and relative paths).
public struct ConfigurationValue: Sendable, Hashable {
    /// Where a value was set.
    public enum Origin: Sendable, Hashable, CustomStringConvertible {
        /// A line of a configuration file.
        case file(path: String, line: Int)
        /// An environment variable.
        case environment(String)
        /// A command-line flag.
        case flag(String)

        public var description: String {
            switch self {
            case .file(let path, let line): "\(path):\(line)"
            case .environment(let name): "environment variable \(name)"
            case .flag(let name): "flag \(name)"
            }
        }

        /// The directory relative paths are resolved against: the configuration file's directory, else the
        /// working directory.
        var baseDirectory: URL {
            if case .file(let path, _) = self { return URL(fileURLWithPath: path).deletingLastPathComponent() }
            return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        }
    }

    /// A single scalar as written.
    public enum Content: Sendable, Hashable {
        /// A scalar.
        case scalar(String)
        /// A list of scalars.
        case list([String])
        /// A list of records (mappings of names to scalars), each with the line it starts on when read from a file.
        case records([ConfigurationRecord])
    }

    /// The value as written.
    public let content: Content
    /// Where it was written.
    public let origin: Origin

    /// Creates a value.
    public init(_ content: Content, origin: Origin) {
        self.content = content
        self.origin = origin
    }
}
