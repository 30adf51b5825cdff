/// Informational metadata of a step or problem.
public struct Metadata: Sendable, Hashable {
    /// The server template name, e.g. `authenticator/html-form/authenticate/get`.
    public let viewName: String?
    /// The server template area.
    public let templateArea: String?

    /// Creates metadata.
    /// - Parameters:
    ///   - viewName: The server view name.
    ///   - templateArea: The server template area.
    public init(viewName: String? = nil, templateArea: String? = nil) {
        self.viewName = viewName
        self.templateArea = templateArea
    }
}
