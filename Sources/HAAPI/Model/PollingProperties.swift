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
    /// The server's recommended polling interval in milliseconds (`interval`, sent as a string), if any.
    public let intervalMilliseconds: Int?

    /// ``maxWaitTime`` as a number of seconds ("Polling session maximum time in seconds before the session expires",
    /// [UIKIT] `haapi-step.types.ts`); nil when absent or not a non-negative number.
    public var maximumWaitSeconds: Int? {
        maxWaitTime.flatMap { Double($0.trimmingWhitespace) }.flatMap { $0.isFinite && $0 >= 0 ? Int(min($0, 86_400)) : nil }
    }

    /// Decodes polling properties.
    /// - Parameter json: The `properties` object.
    public init(json: JSONValue?) {
        self.status = PollingStatus(rawValue: json?["status"]?.stringValue ?? "")
        self.recipientOfCommunication = json?["recipientOfCommunication"]?.stringValue
        self.maxWaitTime = json?["maxWaitTime"]?.scalarText
        self.maxWaitRemainingTime = json?["maxWaitRemainingTime"]?.scalarText
        // Curity sends the recommended interval in milliseconds as a string ("3000") [UIKIT]; a number is taken too.
        switch json?["interval"] {
        case .number(let value) where value.isFinite && value >= 0: self.intervalMilliseconds = Int(min(value, 3_600_000))
        case .string(let text):
            self.intervalMilliseconds = Double(text.trimmingWhitespace).flatMap { $0.isFinite && $0 >= 0 ? Int(min($0, 3_600_000)) : nil }
        default: self.intervalMilliseconds = nil
        }
    }
}
