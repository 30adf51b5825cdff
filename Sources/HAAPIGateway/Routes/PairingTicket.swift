/// The one sign-in of `haapi-gateway login`: a single-use URL secret and a short confirmation code.
///
/// The terminal prints the URL and the code; the page the URL opens shows the code again and the person confirms they
/// match before anything else happens (remote-phishing resistance, RFC 8628 §5.4). The URL works once, until it expires.
public struct PairingTicket: Sendable {
    /// The URL secret (256 bits, base64url).
    public let token: String
    /// The confirmation code, eight letters from an alphabet without vowels or look-alikes, as `XXXX-XXXX` (RFC 8628 §6.1).
    public let code: String
    /// When the URL stops working.
    public let expiresAt: ContinuousClock.Instant

    /// The letters of confirmation codes (no vowels, so no words; no look-alikes such as O/0 or I/1).
    static let codeAlphabet = Array("BCDFGHJKLMNPQRSTVWXZ")

    /// A fresh ticket valid for `lifetime`.
    public static func make(lifetime: Duration, now: ContinuousClock.Instant = .now) -> PairingTicket {
        var generator = SystemRandomNumberGenerator()
        let letters = (0..<8).map { _ in codeAlphabet[Int.random(in: 0..<codeAlphabet.count, using: &generator)] }
        return PairingTicket(token: SecureToken.make(), code: String(letters[0..<4]) + "-" + String(letters[4..<8]), expiresAt: now + lifetime)
    }

    /// The path of the single-use URL.
    public var path: String { "/pair/\(token)" }
}
