/// Who started a sign-in other than a browser opening the gateway: a device through the device authorization grant
/// (`device`), or an application through a signed start link (`link`). Encoded in the outcome as `"starter"`.
public struct SignInStarter: Sendable, Encodable, Equatable {
    /// `device` or `link`.
    public let kind: String
    /// The device client's id (a device).
    public let client: String?
    /// The device authorization's reference (not a secret; it names nothing else), or the link's `ref`.
    public let reference: String?

    /// Creates a starter.
    public init(kind: String, client: String? = nil, reference: String?) {
        self.kind = kind
        self.client = client
        self.reference = reference
    }
}
