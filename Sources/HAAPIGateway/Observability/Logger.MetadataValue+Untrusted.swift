import Logging

extension Logger.MetadataValue {
    /// A value from outside the gateway (a query parameter, a path, a header, an upstream's error code or description)
    /// as it is logged: control characters escaped and the length bounded (``LogText/untrusted(_:)``), in every log
    /// format, so that it can neither forge a line nor fill the log.
    public static func untrusted(_ text: some StringProtocol) -> Logger.MetadataValue {
        .string(LogText.untrusted(text))
    }
}
