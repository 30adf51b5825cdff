/// The status of a polling step: `pending`, `done`, `failed`, or any other string as received.
public enum PollingStatus: Sendable, Hashable {
    /// Still waiting; poll again.
    case pending
    /// Completed; follow the main action.
    case done
    /// Failed; follow the main action.
    case failed
    /// Any other value.
    case other(String)

    /// Classifies a status string.
    /// - Parameter rawValue: The `status` property.
    public init(rawValue: String) {
        switch rawValue {
        case "pending": self = .pending
        case "done": self = .done
        case "failed": self = .failed
        default: self = .other(rawValue)
        }
    }
}
