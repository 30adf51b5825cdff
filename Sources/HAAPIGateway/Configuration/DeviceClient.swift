/// A device registered to sign in through the gateway's device authorization endpoint (RFC 8628): a headless host,
/// a kiosk, a command-line tool. Printed (`description`, `debugDescription`, `dump`), it shows no secret.
public struct DeviceClient: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The `client_id` the device sends.
    public var id: String
    /// What the person is shown on the verification page ("Build server 3 is asking to sign in").
    public var name: String
    /// The client secret, when the device is a confidential client; `nil` for a public client (RFC 8628 §3.1 allows
    /// them: a device may be unable to keep a secret).
    public var secret: String?
    /// Whether the device is sent the private key of the flow's DPoP key (`dpop_private_key`, PEM) with tokens the
    /// upstream bound to it (token-bound codes, `upstream.bindTokensToDPoP`); default false: bound tokens are then refused
    /// to the device (`unauthorized_client`), for a private key is never sent where nobody asked for it.
    public var receivesDPoPKey: Bool

    /// Creates a device client.
    public init(id: String, name: String, secret: String? = nil, receivesDPoPKey: Bool = false) {
        self.id = id
        self.name = name
        self.secret = secret
        self.receivesDPoPKey = receivesDPoPKey
    }

    /// The client with its secret redacted.
    public var description: String {
        "DeviceClient(id: \(id), name: \(name), secret: \(secret == nil ? "none" : SecretRedaction.marker), receivesDPoPKey: \(receivesDPoPKey))"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// The members that are not secret, so that `dump` shows no secret.
    public var customMirror: Mirror {
        Mirror(self, children: ["id": id, "name": name, "confidential": secret != nil, "receivesDPoPKey": receivesDPoPKey], displayStyle: .struct)
    }
}
