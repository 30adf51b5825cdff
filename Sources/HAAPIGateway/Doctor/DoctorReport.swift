import Foundation

/// What `haapi-gateway doctor` found about an upstream, check by check, and whether a sign-in can start.
public struct DoctorReport: Sendable, Equatable, Codable {
    /// The upstream checked (its issuer, as configured).
    public let upstream: String
    /// The client checked.
    public let clientID: String
    /// The checks, in the order they were made.
    public let checks: [DoctorCheck]

    /// Whether a sign-in can start: no check failed.
    public var signInCanStart: Bool { !checks.contains { $0.result == .failed } }

    /// The exit status: 0 when a sign-in can start, 1 when something blocks it.
    public var exitStatus: Int32 { signInCanStart ? 0 : 1 }

    /// The report as text: a heading, one line per check, and the conclusion. What the upstream answered is quoted in
    /// some lines: each is one line (control characters escaped, ``LogText``) and shows no URL's password.
    public var text: String {
        (["haapi-gateway doctor: \(upstream) (client \(clientID))"] + checks.map(\.line)
            + [signInCanStart ? "A sign-in can start." : "Sign-ins cannot start: change what the ✗ lines say, then run doctor again."])
            .map { LogText.escapingControlCharacters(SecretRedaction.redactingURLPasswords(in: $0)) }
            .joined(separator: "\n") + "\n"
    }

    /// The report as one JSON object (sorted keys): `upstream`, `clientID`, `signInCanStart` and `checks`; no URL's
    /// password.
    public var json: String {
        struct Document: Encodable {
            let upstream: String
            let clientID: String
            let signInCanStart: Bool
            let checks: [DoctorCheck]
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data =
            (try? encoder.encode(Document(upstream: upstream, clientID: clientID, signInCanStart: signInCanStart, checks: checks))) ?? Data("{}".utf8)
        return SecretRedaction.redactingURLPasswords(in: String(decoding: data, as: UTF8.self)) + "\n"
    }
}
