import HAAPI

/// The device authorizations under way (RFC 8628) in this process's memory (``DeviceAuthorizationStore``): the store
/// of `sessions.store: memory`, where one process serves every step.
///
/// The device code is a bearer secret of 256 bits; only its SHA-256 is kept, so the store never holds a usable copy.
/// Tokens wait here only between the end of the sign-in and the hand-over to the device's next poll: a device code
/// yields tokens once (again only when that answer could not be written, ``DeviceTokenHandOver``).
actor MemoryDeviceAuthorizations: DeviceAuthorizationStore {
    private var byDeviceCode: [String: PendingDeviceAuthorization] = [:]
    private var deviceCodeByUserCode: [String: String] = [:]
    private var deviceCodeByReference: [String: String] = [:]
    /// The access tokens handed to device clients (their SHA-256) with the client and when they expire.
    private var issued: [String: (clientID: String, expiresAt: ContinuousClock.Instant)] = [:]
    private let settings: SettingsSource<DeviceSettings>
    private let now: @Sendable () -> ContinuousClock.Instant

    /// - Parameter now: The clock (injected by tests).
    init(settings: SettingsSource<DeviceSettings>, now: @escaping @Sendable () -> ContinuousClock.Instant = { .now }) {
        self.settings = settings
        self.now = now
    }

    func create(client: DeviceClient, scopes: [String]?, address: String?) -> (deviceCode: String, authorization: DeviceAuthorization)? {
        let settings = settings.current
        purge(keepingExpiredFor: .seconds(settings.codeLifetimeSeconds))
        guard byDeviceCode.count < settings.maximumPendingAuthorizations else { return nil }
        var userCode = UserCode.make()
        while deviceCodeByUserCode[userCode] != nil { userCode = UserCode.make() }
        let deviceCode = DeviceCode.make()
        let authorization = DeviceAuthorization(reference: SecureToken.make(byteCount: 12), client: client, userCode: userCode, scopes: scopes)
        let key = DeviceCode.hash(deviceCode)
        byDeviceCode[key] = PendingDeviceAuthorization(
            authorization: authorization,
            address: address,
            expiresAt: now() + .seconds(settings.codeLifetimeSeconds),
            intervalSeconds: settings.pollIntervalSeconds
        )
        deviceCodeByUserCode[userCode] = key
        deviceCodeByReference[authorization.reference] = key
        return (deviceCode, authorization)
    }

    func enter(userCode: String) -> UserCodeEntry {
        guard let key = deviceCodeByUserCode[userCode], var pending = byDeviceCode[key], now() < pending.expiresAt else {
            return .unknown
        }
        guard case .waiting = pending.state, pending.entries < settings.current.maximumEntriesPerCode else { return .alreadyUsed }
        pending.entries += 1
        byDeviceCode[key] = pending
        return .found(pending.authorization)
    }

    func beginSignIn(userCode: String) -> DeviceAuthorization? {
        decide(userCode: userCode, becoming: .signingIn)
    }

    func waiting(from address: String) -> Int {
        let now = now()
        return byDeviceCode.values.count { pending in
            guard pending.address == address, now < pending.expiresAt, case .waiting = pending.state else { return false }
            return true
        }
    }

    func knows(userCode: String) -> Bool {
        guard let key = deviceCodeByUserCode[userCode], let pending = byDeviceCode[key] else { return false }
        return now() < pending.expiresAt
    }

    func reopen(reference: String) {
        update(reference: reference) { authorization in
            if case .signingIn = authorization.state { authorization.state = .waiting }
        }
    }

    func refuse(userCode: String) -> Bool {
        decide(userCode: userCode, becoming: .denied) != nil
    }

    /// Approves only: this store keeps no journal, so the dispatcher keeps the outcome's deliveries itself.
    func approve(reference: String, tokens: OAuthTokens, keepingOutcome entries: [CallbackEntry]) -> DeviceApproval {
        DeviceApproval(approved: approve(reference: reference, tokens: tokens), outcomeKept: false)
    }

    /// The tokens wait for the device's next poll, while its sign-in is under way and its code has not expired.
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

    func deny(reference: String) {
        update(reference: reference) { authorization in
            switch authorization.state {
            case .approved, .handingOver: return
            case .waiting, .signingIn, .denied: authorization.state = .denied
            }
        }
    }

    func poll(deviceCode: String, clientID: String) -> DevicePollAnswer {
        let key = DeviceCode.hash(deviceCode)
        guard var pending = byDeviceCode[key], pending.authorization.client.id == clientID else { return .invalid }
        let now = now()
        switch pending.state {
        case .approved(let tokens):
            return handOver(tokens, of: &pending, key: key)
        case .handingOver(let tokens, let since):
            // Another poll is answering with the tokens; past the lease its answer is taken as lost.
            guard now - since >= .seconds(DeviceTokenHandOver.leaseSeconds) else { return .pending }
            return handOver(tokens, of: &pending, key: key)
        case .denied:
            forget(key)
            return .denied
        case .waiting, .signingIn:
            defer { byDeviceCode[key] = pending }
            let last = pending.lastPoll
            pending.lastPoll = now
            guard now < pending.expiresAt else { return .expired }
            if let last, now - last < .seconds(pending.intervalSeconds) {
                pending.intervalSeconds += 5
                return .slowDown
            }
            return .pending
        }
    }

    func handedOver(_ handOver: DeviceTokenHandOver) {
        guard let key = deviceCodeByReference[handOver.reference], case .handingOver = byDeviceCode[key]?.state else { return }
        // Given: the authorization is forgotten, so the code is unknown (`invalid_grant`) from now on.
        forget(key)
    }

    func handOverFailed(_ handOver: DeviceTokenHandOver) {
        update(reference: handOver.reference) { authorization in
            if case .handingOver(let tokens, _) = authorization.state { authorization.state = .approved(tokens) }
        }
    }

    func recordIssued(accessToken: String, to clientID: String, forSeconds seconds: Int) {
        let now = now()
        issued = issued.filter { $0.value.expiresAt > now }
        issued[DeviceCode.hash(accessToken)] = (clientID, now + .seconds(seconds))
    }

    func wasIssued(accessToken: String, to clientID: String) -> Bool {
        guard let record = issued[DeviceCode.hash(accessToken)] else { return false }
        return record.clientID == clientID && now() < record.expiresAt
    }

    /// Takes approved tokens for a hand-over (``DeviceTokenHandOver``). Past `expires_in` the code yields nothing,
    /// whatever happened before (RFC 8628 §3.5 `expired_token`), and is forgotten.
    private func handOver(_ tokens: OAuthTokens, of pending: inout PendingDeviceAuthorization, key: String) -> DevicePollAnswer {
        let now = now()
        guard now < pending.expiresAt else {
            forget(key)
            return .expired
        }
        pending.state = .handingOver(tokens, since: now)
        pending.lastPoll = now
        byDeviceCode[key] = pending
        return .tokens(DeviceTokenHandOver(tokens: tokens, reference: pending.authorization.reference))
    }

    /// The person's decision on a waiting code, counted as an entry and refused past `devices.maximumEntriesPerCode`;
    /// the authorization, or nil when the code was not waiting.
    private func decide(userCode: String, becoming state: DeviceAuthorizationState) -> DeviceAuthorization? {
        guard let key = deviceCodeByUserCode[userCode], var pending = byDeviceCode[key], now() < pending.expiresAt, case .waiting = pending.state,
            pending.entries < settings.current.maximumEntriesPerCode
        else { return nil }
        pending.entries += 1
        pending.state = state
        byDeviceCode[key] = pending
        return pending.authorization
    }

    /// Forgets authorizations long past their expiry (an expired code still answers `expired_token` for one more
    /// lifetime, `grace`, then `invalid_grant`), and the tokens of those nobody collected.
    private func purge(keepingExpiredFor grace: Duration) {
        let now = now()
        for (key, pending) in byDeviceCode where now >= pending.expiresAt + grace { forget(key) }
    }

    private func update(reference: String, _ change: (inout PendingDeviceAuthorization) -> Void) {
        guard let key = deviceCodeByReference[reference], var authorization = byDeviceCode[key] else { return }
        change(&authorization)
        byDeviceCode[key] = authorization
    }

    private func forget(_ key: String) {
        guard let pending = byDeviceCode.removeValue(forKey: key) else { return }
        deviceCodeByUserCode[pending.authorization.userCode] = nil
        deviceCodeByReference[pending.authorization.reference] = nil
    }
}
