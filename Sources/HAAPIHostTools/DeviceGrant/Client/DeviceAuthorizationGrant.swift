import Foundation
import HAAPI

/// A device authorization (RFC 8628 §3.2): the device code the device polls with, and what the person is shown: the
/// user code and where to enter it.
///
/// The device code is a secret: ``description`` leaves it out. What is shown comes from the gateway and is checked
/// before it reaches a terminal: the user code is printable ASCII, the verification URIs are absolute http(s) URLs.
public struct DeviceAuthorizationGrant: Sendable, Hashable, CustomStringConvertible {
    /// The device verification code (secret).
    public let deviceCode: String
    /// The end-user verification code, like `WDJB-MJHT`.
    public let userCode: String
    /// Where the person enters the user code.
    public let verificationURI: URL
    /// The verification URI with the user code in it, when the gateway offers one.
    public let verificationURIComplete: URL?
    /// How long the codes are valid.
    public let expiresIn: Duration
    /// How long to wait between two token requests: `interval`, 5 s when the gateway does not say (§3.2), at least 1 s.
    public let interval: Duration

    /// The interval when the gateway does not name one (RFC 8628 §3.2).
    public static let defaultInterval = Duration.seconds(5)

    /// Creates a grant.
    /// - Parameters:
    ///   - deviceCode: The device code.
    ///   - userCode: The user code.
    ///   - verificationURI: The verification URI.
    ///   - verificationURIComplete: The verification URI with the user code.
    ///   - expiresIn: The lifetime of the codes.
    ///   - interval: The polling interval.
    public init(
        deviceCode: String,
        userCode: String,
        verificationURI: URL,
        verificationURIComplete: URL?,
        expiresIn: Duration,
        interval: Duration = defaultInterval
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
    }

    /// Reads a device authorization response (RFC 8628 §3.2).
    /// - Parameter json: The JSON object of the answer.
    /// - Throws: ``DeviceClientError`` (malformed answer) naming the member that is missing or unusable.
    public static func decode(_ json: JSONValue) throws(DeviceClientError) -> DeviceAuthorizationGrant {
        func fail(_ member: String) -> DeviceClientError { .malformedAnswer("the gateway's device authorization answer has no usable \(member)") }
        func uri(_ name: String) -> URL? {
            guard let text = json[name]?.stringValue, isPrintable(text), let url = URL(string: text), let scheme = url.scheme?.lowercased(),
                scheme == "https" || scheme == "http", !(url.host ?? "").isEmpty
            else { return nil }
            return url
        }
        guard let deviceCode = json["device_code"]?.stringValue, !deviceCode.isEmpty else { throw fail("device_code") }
        guard let userCode = json["user_code"]?.stringValue, !userCode.isEmpty, userCode.count <= 64, isPrintable(userCode) else {
            throw fail("user_code")
        }
        guard let verificationURI = uri("verification_uri") else { throw fail("verification_uri") }
        if json["verification_uri_complete"] != nil, uri("verification_uri_complete") == nil { throw fail("verification_uri_complete") }
        guard let expiresIn = json["expires_in"]?.intValue, expiresIn > 0 else { throw fail("expires_in") }
        var interval = defaultInterval
        if let member = json["interval"] {
            guard let seconds = member.intValue, seconds >= 0 else { throw fail("interval") }
            interval = .seconds(max(1, seconds))
        }
        return DeviceAuthorizationGrant(
            deviceCode: deviceCode,
            userCode: userCode,
            verificationURI: verificationURI,
            verificationURIComplete: uri("verification_uri_complete"),
            expiresIn: .seconds(expiresIn),
            interval: interval
        )
    }

    /// The user code, the URIs and the timing; never the device code.
    public var description: String {
        "DeviceAuthorizationGrant(userCode: \(userCode), verificationURI: \(verificationURI.absoluteString), verificationURIComplete: \(verificationURIComplete?.absoluteString ?? "none"), expiresIn: \(expiresIn), interval: \(interval), deviceCode: <redacted>)"
    }

    /// Printable ASCII only: nothing a terminal would take as a control sequence.
    private static func isPrintable(_ text: String) -> Bool { text.unicodeScalars.allSatisfy { (0x21...0x7E).contains($0.value) } }
}
