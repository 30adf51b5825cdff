/// What happened in the device authorization grant (`devices.enabled`): the `event` of
/// `haapi_gateway_device_grant_total`.
enum DeviceGrantEvent: String, CaseIterable, Sendable {
    /// A device was given a device code and a user code.
    case authorized
    /// A device collected its tokens.
    case tokensIssued = "tokens_issued"
    /// A device's refresh went through the gateway.
    case refreshed
    /// A device revoked a token through the gateway.
    case revoked
    /// A person entered a user code that is not one.
    case wrongCode = "wrong_code"
    /// Tokens bound to a DPoP key were refused to a device client not configured to receive the key.
    case boundTokensRefused = "bound_tokens_refused"
}
