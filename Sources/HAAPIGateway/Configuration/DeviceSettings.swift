import Foundation

/// The device authorization grant (RFC 8628) on the gateway: devices ask for a code, a person enters it on the
/// gateway's `/device` page and signs in there, and the device collects the tokens from the gateway's token endpoint.
/// Printed (`description`, `debugDescription`, `dump`), it shows no secret or key.
public struct DeviceSettings: Sendable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// Whether the endpoints and the `/device` page are served (default off).
    public var enabled = false
    /// The registered device clients.
    public var clients: [DeviceClient] = []
    /// How long a device code and its user code are valid (`expires_in`, default 600 s).
    public var codeLifetimeSeconds = 600
    /// The least time between two polls of one device code (`interval`, default 5 s, RFC 8628 §3.2's default).
    public var pollIntervalSeconds = 5
    /// Wrong user codes one client address may enter within ``wrongCodeWindowSeconds`` (default 10).
    public var maximumWrongCodesPerAddress = 10
    /// Wrong user codes all addresses together may enter within ``wrongCodeWindowSeconds`` (default 100): guessing
    /// from many addresses is bounded too (RFC 8628 §5.1).
    public var maximumWrongCodes = 100
    /// The sliding window wrong user codes are counted in (default 300 s).
    public var wrongCodeWindowSeconds = 300
    /// How many times one user code may be entered (default 3): a code seen by others cannot be used over and over.
    public var maximumEntriesPerCode = 3
    /// At most this many device authorizations waiting at once (default 10 000); beyond it a device is asked to come
    /// back later.
    public var maximumPendingAuthorizations = 10_000
    /// At most this many device authorizations of public clients waiting from one client address (default 20): a
    /// client without a secret can be used by anyone, and must not fill ``maximumPendingAuthorizations`` from a few
    /// addresses; beyond it that address is told to come back later (429).
    public var maximumPendingPerAddress = 20
    /// The 256-bit keys refresh tokens handed to devices are sealed with (from `devices.refreshTokenKeyFile`, one per
    /// line): the first seals, every one opens, so keys rotate as `sessions.encryptionKeysFile`'s do. Empty: with
    /// `sessions.store: postgres` they are derived from the sessions' encryption keys (every replica has the same), else
    /// one is made at startup, so those refresh tokens stop working when the gateway restarts.
    public var refreshTokenKeys: [Data] = []

    /// Creates the default (off) settings.
    public init() {}

    /// The client with this `client_id`, if registered.
    package func client(id: String) -> DeviceClient? {
        clients.first { $0.id == id }
    }

    /// The settings with the clients' secrets and the refresh-token keys redacted.
    public var description: String {
        "DeviceSettings(" + customMirror.children.map { "\($0.label ?? ""): \(String(reflecting: $0.value))" }.joined(separator: ", ") + ")"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// Every member but the refresh-token keys, which are counted; the clients print without their secrets.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "enabled": enabled, "clients": clients, "codeLifetimeSeconds": codeLifetimeSeconds, "pollIntervalSeconds": pollIntervalSeconds,
                "maximumWrongCodesPerAddress": maximumWrongCodesPerAddress, "maximumWrongCodes": maximumWrongCodes,
                "wrongCodeWindowSeconds": wrongCodeWindowSeconds, "maximumEntriesPerCode": maximumEntriesPerCode,
                "maximumPendingAuthorizations": maximumPendingAuthorizations, "maximumPendingPerAddress": maximumPendingPerAddress,
                "refreshTokenKeys": "\(refreshTokenKeys.count) \(SecretRedaction.marker)",
            ],
            displayStyle: .struct
        )
    }
}
