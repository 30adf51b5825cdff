/// A token's lifetime as a token endpoint gives it (`expires_in`, RFC 6749 §5.1), read so that no value can make a reader
/// fail: every reader adds it to a date and turns the result into whole seconds or milliseconds, which a value near
/// `Int.max` would overflow (and trap).
///
/// The choice, for an upstream that sends something odd: a whole number of seconds is taken as a JSON number or as a
/// string of digits (some servers send one); a larger lifetime than ``maximumSeconds`` (ten years) is that maximum, since
/// the server meant a long one, and the only cost is a refresh sooner than it asked; a negative, fractional beyond its
/// whole seconds, or non-numeric one (`"soon"`, `true`, `-5`) is unknown, as if none was sent, so that the tools treat
/// the token as they treat one without `expires_in` rather than refresh it on every call.
public enum TokenLifetime {
    /// The longest lifetime kept: ten years (of 365 days), in seconds.
    public static let maximumSeconds = 10 * 365 * 86_400

    /// The lifetime in `value` (the `expires_in` member), bounded; nil when it is missing or not a lifetime.
    /// - Parameter value: The member as it came, if it came.
    public static func seconds(in value: JSONValue?) -> Int? {
        switch value {
        case .number(let number):
            guard number.isFinite, number >= 0 else { return nil }
            return number >= Double(maximumSeconds) ? maximumSeconds : Int(number.rounded(.down))
        case .string(let text):
            guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
            return bounded(Int(text) ?? maximumSeconds)
        default: return nil
        }
    }

    /// `seconds` within `0...maximumSeconds`: a larger one is the maximum, a negative one unknown (nil).
    /// - Parameter seconds: A lifetime from anywhere (a token endpoint, a token file written before the bound).
    public static func bounded(_ seconds: Int?) -> Int? {
        guard let seconds, seconds >= 0 else { return nil }
        return min(seconds, maximumSeconds)
    }
}
