import Crypto
import Foundation
import HAAPI

/// The device authorizations under way (RFC 8628), in memory: created by the device authorization endpoint, found by
/// user code on the verification page, decided by the sign-in, and collected by the device's poll of the token endpoint.
///
/// The device code is a bearer secret of 256 bits; only its SHA-256 is kept, so the store never holds a usable copy.
/// Tokens wait here only between the end of the sign-in and the device's next poll, which takes them out: a device code
/// yields tokens once.
actor DeviceAuthorizationStore {
    private var byDeviceCode: [String: DeviceAuthorization] = [:]
    private var deviceCodeByUserCode: [String: String] = [:]
    private var deviceCodeByReference: [String: String] = [:]
    private var settings: DeviceSettings
    private let now: @Sendable () -> ContinuousClock.Instant

    /// - Parameter now: The clock (injected by tests).
    init(settings: DeviceSettings, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.now = now
    }

    /// Applies new settings (a reload); authorizations under way keep their expiry and interval.
    func update(settings: DeviceSettings) {
        self.settings = settings
    }

    /// How many device authorizations are held.
    var count: Int { byDeviceCode.count }

    /// Starts a device authorization for `client`.
    /// - Returns: The device code (given to the device once, never kept) and the authorization; nil when
    ///   `devices.maximumPendingAuthorizations` are waiting already.
    func create(client: DeviceClient, scopes: [String]?) -> (deviceCode: String, authorization: DeviceAuthorization)? {
        purge()
        guard byDeviceCode.count < settings.maximumPendingAuthorizations else { return nil }
        var userCode = UserCode.make()
        while deviceCodeByUserCode[userCode] != nil { userCode = UserCode.make() }
        let deviceCode = SecureToken.make(byteCount: 32)
        let authorization = DeviceAuthorization(
            reference: SecureToken.make(byteCount: 12), client: client, userCode: userCode, scopes: scopes,
            expiresAt: now() + .seconds(settings.codeLifetimeSeconds), intervalSeconds: settings.pollIntervalSeconds)
        let key = Self.key(deviceCode)
        byDeviceCode[key] = authorization
        deviceCodeByUserCode[userCode] = key
        deviceCodeByReference[authorization.reference] = key
        return (deviceCode, authorization)
    }

    /// The person entered `userCode` (normalized) on the verification page; each entry of a known code is counted.
    func enter(userCode: String) -> UserCodeEntry {
        guard let key = deviceCodeByUserCode[userCode], var authorization = byDeviceCode[key], now() < authorization.expiresAt else {
            return .unknown
        }
        guard case .waiting = authorization.state, authorization.entries < settings.maximumEntriesPerCode else { return .alreadyUsed }
        authorization.entries += 1
        byDeviceCode[key] = authorization
        return .found(authorization)
    }

    /// The person confirmed the device: the sign-in starts, and nobody else can start one with this code.
    /// - Returns: The authorization, or nil when the code is no longer waiting (expired, or claimed by another browser).
    func beginSignIn(userCode: String) -> DeviceAuthorization? {
        guard let key = deviceCodeByUserCode[userCode], var authorization = byDeviceCode[key], now() < authorization.expiresAt,
            case .waiting = authorization.state
        else { return nil }
        authorization.state = .signingIn
        byDeviceCode[key] = authorization
        return authorization
    }

    /// The sign-in could not start (the upstream was unreachable): the code waits again, for "Try again".
    func reopen(reference: String) {
        update(reference: reference) { authorization in
            if case .signingIn = authorization.state { authorization.state = .waiting }
        }
    }

    /// The person refused the device on the verification page (a waiting code): the device is told `access_denied`.
    /// - Returns: Whether the code was waiting.
    func refuse(userCode: String) -> Bool {
        guard let key = deviceCodeByUserCode[userCode], var authorization = byDeviceCode[key], case .waiting = authorization.state else { return false }
        authorization.state = .denied
        byDeviceCode[key] = authorization
        return true
    }

    /// The sign-in succeeded: the tokens wait for the device's next poll.
    /// - Returns: Whether the device can still collect them (false once the code has expired or was decided otherwise;
    ///   the tokens are then dropped here).
    func approve(reference: String, tokens: OAuthTokens) -> Bool {
        var approved = false
        let now = now()
        update(reference: reference) { authorization in
            guard case .signingIn = authorization.state, now < authorization.expiresAt else { return }
            authorization.state = .approved(tokens)
            approved = true
        }
        return approved
    }

    /// The sign-in was cancelled or failed: the device is told `access_denied`.
    func deny(reference: String) {
        update(reference: reference) { authorization in
            if case .approved = authorization.state { return }
            authorization.state = .denied
        }
    }

    /// A poll of the token endpoint with `deviceCode` by `clientID` (RFC 8628 §3.4–3.5).
    func poll(deviceCode: String, clientID: String) -> DevicePollAnswer {
        let key = Self.key(deviceCode)
        guard var authorization = byDeviceCode[key], authorization.client.id == clientID else { return .invalid }
        let now = now()
        defer { if byDeviceCode[key] != nil { byDeviceCode[key]?.lastPoll = now } }
        switch authorization.state {
        case .approved(let tokens):
            // Given once: the authorization is forgotten, so the code is unknown (`invalid_grant`) from now on.
            forget(key)
            return .tokens(tokens)
        case .denied:
            forget(key)
            return .denied
        case .waiting, .signingIn:
            guard now < authorization.expiresAt else { return .expired }
            if let last = authorization.lastPoll, now - last < .seconds(authorization.intervalSeconds) {
                authorization.intervalSeconds += 5
                byDeviceCode[key] = authorization
                return .slowDown
            }
            return .pending
        }
    }

    /// Forgets authorizations long past their expiry (an expired code still answers `expired_token` for one more
    /// lifetime, then `invalid_grant`), and the tokens of those nobody collected.
    private func purge() {
        let now = now()
        let grace = Duration.seconds(settings.codeLifetimeSeconds)
        for (key, authorization) in byDeviceCode where now >= authorization.expiresAt + grace { forget(key) }
    }

    private func update(reference: String, _ change: (inout DeviceAuthorization) -> Void) {
        guard let key = deviceCodeByReference[reference], var authorization = byDeviceCode[key] else { return }
        change(&authorization)
        byDeviceCode[key] = authorization
    }

    private func forget(_ key: String) {
        guard let authorization = byDeviceCode.removeValue(forKey: key) else { return }
        deviceCodeByUserCode[authorization.userCode] = nil
        deviceCodeByReference[authorization.reference] = nil
    }

    /// The key a device code is held under: its SHA-256, hex.
    private static func key(_ deviceCode: String) -> String {
        SHA256.hash(data: Data(deviceCode.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
