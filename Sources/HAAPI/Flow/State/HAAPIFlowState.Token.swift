import Foundation

extension HAAPIFlowState {
    /// The flow's DPoP-bound HAAPI access token as saved, with its expiry as a wall-clock time (a restored flow may run in
    /// another process, whose monotonic clock has another origin). A secret: printing it shows no value.
    public struct Token: Codable, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The token value. Secret.
        public var value: String
        /// The token type (`DPoP`).
        public var tokenType: String
        /// The lifetime in seconds the token endpoint gave.
        public var expiresIn: Int
        /// When the token expires (a little earlier than the server's time: counted from when it was requested).
        public var expiresAt: Date

        /// Creates a saved token.
        /// - Parameters:
        ///   - value: The token value.
        ///   - tokenType: The token type.
        ///   - expiresIn: The lifetime in seconds the token endpoint gave.
        ///   - expiresAt: When the token expires.
        init(value: String, tokenType: String, expiresIn: Int, expiresAt: Date) {
            self.value = value
            self.tokenType = tokenType
            self.expiresIn = expiresIn
            self.expiresAt = expiresAt
        }

        /// The type and expiry; the value is redacted.
        public var description: String { "HAAPIFlowState.Token(type: \(tokenType), expiresAt: \(expiresAt), value: <redacted>)" }

        /// The same as ``description``.
        public var debugDescription: String { description }

        /// The type and expiry only, so that `dump` shows no value.
        public var customMirror: Mirror { Mirror(self, children: ["tokenType": tokenType, "expiresAt": expiresAt], displayStyle: .struct) }
    }
}
