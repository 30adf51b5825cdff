/// One entry of an invalid-input problem's `invalidFields`.
public struct InvalidField: Sendable, Hashable {
    /// The field name.
    public let name: String
    /// The reason, e.g. `invalidValue` or `missing`.
    public let reason: String?
    /// A localized explanation.
    public let detail: String?

    /// Creates an entry.
    /// - Parameters:
    ///   - name: The field name.
    ///   - reason: The reason.
    ///   - detail: The explanation.
    public init(name: String, reason: String?, detail: String?) {
        self.name = name
        self.reason = reason
        self.detail = detail
    }
}
