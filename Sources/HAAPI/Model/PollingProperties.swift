/// The properties of a `polling-step`.
public struct PollingProperties: Sendable, Hashable {
    /// The polling status.
    public let status: PollingStatus
    /// The masked email or phone number the server contacted, if sent.
    public let recipientOfCommunication: String?
    /// The maximum wait time in seconds, as sent (a string in Curity's samples).
    public let maxWaitTime: String?
    /// The remaining wait time in seconds, as sent.
    public let maxWaitRemainingTime: String?
    /// A polling interval in seconds, if the server sent one (`interval` or `pollingInterval`).
    public let interval: Double?

    /// Decodes polling properties.
    /// - Parameter json: The `properties` object.
    public init(json: JSONValue?) {
        self.status = PollingStatus(rawValue: json?["status"]?.stringValue ?? "")
        self.recipientOfCommunication = json?["recipientOfCommunication"]?.stringValue
        self.maxWaitTime = json?["maxWaitTime"]?.scalarText
        self.maxWaitRemainingTime = json?["maxWaitRemainingTime"]?.scalarText
        let interval = json?["interval"] ?? json?["pollingInterval"]
        switch interval {
        case .number(let value): self.interval = value
        case .string(let value): self.interval = Double(value)
        default: self.interval = nil
        }
    }
}
