/// Why a sealed document could not be opened. The caller treats it as a session (or delivery) that cannot be used:
/// a sign-in starts again with a notice. Never contains the document or a key.
public struct SessionCipherError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Code: String, Sendable, Equatable {
        case noMatchingKey = "no_matching_key"
        case authenticationFailed = "authentication_failed"
        case malformed = "malformed"
    }

    private let code: Code

    /// It was sealed under a key that is not in the key list (removed, or never this gateway's).
    public static let noMatchingKey = SessionCipherError(code: .noMatchingKey)
    /// The key is known, but the tag does not verify: the document was altered, or it was sealed for another row (a
    /// row's ciphertext moved to another id).
    public static let authenticationFailed = SessionCipherError(code: .authenticationFailed)
    /// Not a sealed document of a format this gateway knows (too short, another format version).
    public static let malformed = SessionCipherError(code: .malformed)

    public var description: String {
        switch code {
        case .noMatchingKey: "sealed under a key that is not in \(ConfigurationKey.sessionsEncryptionKeysFile.path)"
        case .authenticationFailed: "does not verify (altered, or sealed for another row)"
        case .malformed: "is not a sealed document of a known format"
        }
    }
}
