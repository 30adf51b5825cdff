import Foundation
import HAAPI
import HAAPIGateway

/// What `login` prints and its exit status, once the sign-in ended: the token file written on success (0600, atomically),
/// a one-line summary that never shows a token (or, with `--json`, one JSON object on standard output), the reason on
/// standard error otherwise.
///
/// Exit status: 0 signed in; 1 failed, denied, cancelled or interrupted; 2 no sign-in in time.
public struct LoginReport: Sendable, Equatable {
    /// The exit status.
    public let exitStatus: Int32
    /// What goes to standard output (with its newline), if anything.
    public let standardOutput: String?
    /// What goes to standard error (with its newline), if anything.
    public let standardError: String?

    /// Creates a report.
    /// - Parameters:
    ///   - exitStatus: The exit status.
    ///   - standardOutput: Text for standard output.
    ///   - standardError: Text for standard error.
    public init(exitStatus: Int32, standardOutput: String? = nil, standardError: String? = nil) {
        self.exitStatus = exitStatus
        self.standardOutput = standardOutput
        self.standardError = standardError
    }

    /// Ends a sign-in: on success writes the tokens to `tokenPath`, then says what happened.
    /// - Parameters:
    ///   - outcome: How the sign-in ended.
    ///   - tokenPath: The token file (its directory already prepared, ``TokenFile/prepareDirectory(for:)``).
    ///   - json: Whether standard output gets one JSON object instead of the summary line.
    ///   - embeddedDemo: Whether the tokens come from the embedded demo upstream (the token file is marked so, and
    ///     `logout` then deletes it without asking any server).
    ///   - origin: Where the tokens came from, recorded in the token file for the commands that use it later.
    public static func conclude(
        _ outcome: LoginOutcome,
        tokenPath: String,
        json: Bool,
        embeddedDemo: Bool = false,
        origin: TokenOrigin? = nil
    ) -> LoginReport {
        switch outcome {
        case .signedIn(let tokens):
            do {
                try TokenFile.write(.success(tokens), to: tokenPath, embeddedDemo: embeddedDemo, origin: origin)
            } catch {
                return LoginReport(exitStatus: 1, standardError: "haapi-gateway: signed in, but \(error.message)\n")
            }
            // The gateway that handed the tokens over (this one, or the central one) validated the ID token first.
            let subject = IDTokenClaims.subject(of: tokens.idToken)
            if json {
                var summary: [String: Any] = ["outcome": "success", "tokenFile": tokenPath, "tokenType": tokens.tokenType]
                summary["subject"] = subject
                summary["scope"] = tokens.scope
                summary["expiresIn"] = tokens.expiresIn
                return LoginReport(exitStatus: 0, standardOutput: jsonLine(summary))
            }
            let expiry = tokens.expiresIn.map { "the access token expires in \($0) s" } ?? "no expiry given"
            return LoginReport(
                exitStatus: 0,
                standardOutput:
                    "Signed in as \(subject ?? "(no subject)") with scopes \(tokens.scope ?? "(none)"); \(expiry). Tokens written to \(tokenPath) (mode 0600).\n"
            )
        case .cancelled:
            return LoginReport(
                exitStatus: 1,
                standardOutput: json ? jsonLine(["outcome": "cancelled"]) : nil,
                standardError: "haapi-gateway: the sign-in was cancelled\n"
            )
        case .failed(let failure):
            let reason = [failure.error, failure.errorDescription].compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ": ")
            return LoginReport(
                exitStatus: 1,
                standardOutput: json
                    ? jsonLine(["outcome": "error", "error": failure.error, "errorDescription": failure.errorDescription ?? ""]) : nil,
                standardError: "haapi-gateway: the sign-in failed: \(reason.isEmpty ? "unknown error" : LogText.untrusted(reason))\n"
            )
        case .timedOut(let sentence):
            return LoginReport(
                exitStatus: 2,
                standardOutput: json ? jsonLine(["outcome": "timeout"]) : nil,
                standardError: "haapi-gateway: \(sentence)\n"
            )
        case .interrupted:
            return LoginReport(
                exitStatus: 1,
                standardOutput: json ? jsonLine(["outcome": "interrupted"]) : nil,
                standardError: "haapi-gateway: interrupted\n"
            )
        }
    }

    private static func jsonLine(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}\n" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}
