import Foundation

/// What `git-credential get` answers git (git-credential(1), "INPUT/OUTPUT FORMAT"): a fixed `username` and the access
/// token as `password`, with `password_expiry_utc` (git 2.41 and later stop using the password then; older ones ignore
/// the line, as they ignore every key they do not know).
public struct GitCredentialAnswer: Sendable, Equatable {
    /// The username sent with the token: the server checks the token, and the name says which helper made it (as
    /// docker-credential-gcr's `_dcgcr_…_token` does).
    public static let username = "haapi-gateway"

    /// The token, sent as the password.
    public let token: CredentialHelperToken

    public init(token: CredentialHelperToken) {
        self.token = token
    }

    /// The lines for git's standard input, each ending with a newline.
    public var text: String {
        var lines = ["username=\(Self.username)", "password=\(token.value)"]
        if let expiry = token.expiry { lines.append("password_expiry_utc=\(Int(expiry.timeIntervalSince1970.rounded(.down)))") }
        return lines.map { $0 + "\n" }.joined()
    }
}
