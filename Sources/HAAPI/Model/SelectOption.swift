/// One option of a `select` field.
public struct SelectOption: Sendable, Hashable {
    /// The label to show.
    public let label: String
    /// The value to submit.
    public let value: String
    /// Whether the option is preselected.
    public let selected: Bool

    /// Creates an option.
    /// - Parameters:
    ///   - label: The label.
    ///   - value: The value.
    ///   - selected: Whether it is preselected.
    public init(label: String, value: String, selected: Bool = false) {
        self.label = label
        self.value = value
        self.selected = selected
    }
}
