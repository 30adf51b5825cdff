import Foundation

/// One HAAPI login flow (the server side of a `Session-Id`), bound to the DPoP key that started it.
struct LoginFlow: Sendable {
    let sessionID: String
    /// RFC 7638 thumbprint of the DPoP key that started the flow.
    let keyThumbprint: String
    let expiresAt: Date
    let request: AuthorizationRequest
    /// The value of the `demo-node` cookie this flow's requests must carry (strict mode), or nil.
    let stickinessCookie: String?
    var stage: FlowStage = .selectingAuthenticator
    var failedPasswordAttempts = 0
    var user: DemoUser?
    /// Value of the hidden field that forms of this flow carry; checked on submit.
    var formState = RandomToken.make(byteCount: 16)
    var oneTimeCode: String?
    /// Wrong SMS codes since the last one was sent.
    var failedCodeAttempts = 0
    var approvalID: String?
    var approvalStatus: ApprovalStatus = .pending
    var approvalStartedAt: Date?
    /// Set while a BankID login waits (its approval stands in for the app).
    var bankIDAutoStartToken: String?
    var launchNonce: String?
    var resumeNonce: String?
    /// The base64url challenge of the WebAuthn ceremony on show; cleared once a response to it verified.
    var passkeyChallenge: String?
    /// Refused WebAuthn responses in this flow.
    var failedPasskeyAttempts = 0
    var authenticatedAt: Date?
}
