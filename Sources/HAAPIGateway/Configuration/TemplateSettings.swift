import Foundation

/// Where page templates come from: the shipped defaults, with an optional override directory layered
/// over them file by file (a designer can restyle one step without touching the others).
public struct TemplateSettings: Sendable {
    /// The shipped templates; `nil` means the default lookup (the repository's `templates/`, or `templates/`
    /// next to the executable).
    public var directory: URL?
    /// An operator's directory whose files replace the defaults of the same name.
    public var overrideDirectory: URL?

    /// Creates template settings.
    /// - Parameters:
    ///   - directory: The shipped templates, or `nil` for the default lookup.
    ///   - overrideDirectory: The operator's overrides.
    public init(directory: URL? = nil, overrideDirectory: URL? = nil) {
        self.directory = directory
        self.overrideDirectory = overrideDirectory
    }
}
