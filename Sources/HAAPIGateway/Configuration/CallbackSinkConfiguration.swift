import Foundation

/// Where the token model goes when a sign-in ends. Written in configuration as a URI:
/// `file:PATH`, `https://…` / `http://…` (webhook), or `exec:PROGRAM`.
public enum CallbackSinkConfiguration: Sendable, Hashable {
    /// Write the result as JSON to a file: mode 0600, atomic rename.
    case file(path: String)
    /// POST the result as JSON, signed with HMAC-SHA256 over timestamp and body using `secret`; retried with backoff.
    case webhook(url: URL, secret: String)
    /// Run a program with the result as JSON on standard input (never in arguments or environment).
    case exec(program: String)
}
