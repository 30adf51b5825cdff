import Foundation

/// Where page templates come from: the built-in defaults (or a directory replacing them), with an optional override directory layered
/// over them file by file (a designer can restyle one step without touching the others).
public struct TemplateSettings: Sendable {
    /// A directory of templates used instead of the built-in ones; `nil`: the templates built into the program (the
    /// repository's `templates/` when it was built).
    public var directory: URL?
    /// An operator's directory whose files replace the defaults of the same name.
    public var overrideDirectory: URL?

    /// Creates template settings.
    /// - Parameters:
    ///   - directory: A directory replacing the built-in templates, or `nil` for the built-in ones.
    ///   - overrideDirectory: The operator's overrides.
    public init(directory: URL? = nil, overrideDirectory: URL? = nil) {
        self.directory = directory
        self.overrideDirectory = overrideDirectory
    }
}
