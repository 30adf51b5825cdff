import Foundation
import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

extension StorageContract {
    static let device = DeviceClient(id: "build-host", name: "Build host 3", secret: "build-host-secret-0123456789")

    static func deviceSettings(lifetime: Int = 600, interval: Int = 5, entries: Int = 3, pending: Int = 10_000) -> DeviceSettings {
        var settings = DeviceSettings()
        settings.enabled = true
        settings.clients = [device, DeviceClient(id: "other", name: "Other")]
        settings.codeLifetimeSeconds = lifetime
        settings.pollIntervalSeconds = interval
        settings.maximumEntriesPerCode = entries
        settings.maximumPendingAuthorizations = pending
        return settings
    }

    static let deviceTokens = OAuthTokens(
        accessToken: "contract-access-token-5d1e",
        expiresIn: 300,
        refreshToken: "contract-refresh-token-77a0",
        tokenType: "DPoP",
        scope: "openid",
        idToken: "contract-id-token-0b3c",
        dpopKey: DPoPKey()
    )

    /// Runs `body` with a fresh storage's device authorizations under `settings`, and its clock.
    static func withDevices(
        _ backend: any StorageContractBackend,
        settings: DeviceSettings = deviceSettings(),
        _ body: (any DeviceAuthorizationStore, TestClock) async throws -> Void
    ) async throws {
        try await withStorage(backend) { storage, clock in
            try await body(storage.deviceAuthorizations(settings: .fixed(settings)), clock)
        }
    }

    /// The handed-over tokens of a poll's answer, or nil.
    static func handOver(_ answer: DevicePollAnswer) -> DeviceTokenHandOver? {
        if case .tokens(let handOver) = answer { handOver } else { nil }
    }

    /// The way through: created (waiting from its address), polled pending, entered and confirmed once, approved, the
    /// tokens (with their DPoP key) handed to exactly one poll, the other pending, and once the hand-over ends the code
    /// is spent (`invalid_grant`).
    static func deviceIsApprovedAndHandedTokensOnce(_ backend: any StorageContractBackend) async throws {
        try await withDevices(backend) { devices, clock in
            let (deviceCode, authorization) = try #require(try await devices.create(client: device, scopes: ["openid"], address: "192.0.2.7"))
            #expect(authorization.client == device)
            #expect(authorization.scopes == ["openid"])
            #expect(try await devices.waiting(from: "192.0.2.7") == 1)
            #expect(try await devices.waiting(from: "192.0.2.8") == 0)
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .pending)
            #expect(try await devices.knows(userCode: authorization.userCode))
            #expect(try await devices.knows(userCode: "BCDFGHJK") == false)
            #expect(try await devices.enter(userCode: authorization.userCode) == .found(authorization))
            #expect(try await devices.enter(userCode: "BCDFGHJK") == .unknown)
            #expect(try await devices.beginSignIn(userCode: authorization.userCode) == authorization)
            #expect(try await devices.beginSignIn(userCode: authorization.userCode) == nil, "one browser starts the sign-in")
            #expect(try await devices.enter(userCode: authorization.userCode) == .alreadyUsed, "signing in already")
            #expect(try await devices.knows(userCode: authorization.userCode), "known whatever its state")
            #expect(try await devices.waiting(from: "192.0.2.7") == 0, "no longer waiting")
            clock.advance(.seconds(6))
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .pending, "signing in")
            #expect(try await devices.approve(reference: authorization.reference, tokens: deviceTokens, keepingOutcome: []).approved)
            clock.advance(.seconds(6))
            async let first = devices.poll(deviceCode: deviceCode, clientID: device.id)
            async let second = devices.poll(deviceCode: deviceCode, clientID: device.id)
            let answers = try await [first, second]
            let handed = answers.compactMap(handOver)
            #expect(handed.map(\.tokens) == [deviceTokens], "\(answers)")
            #expect(handed.first?.tokens.dpopKey?.publicJWK == deviceTokens.dpopKey?.publicJWK)
            #expect(handed.first?.reference == authorization.reference)
            #expect(answers.contains(.pending), "the other poll waits while the hand-over is under way: \(answers)")
            try await devices.handedOver(try #require(handed.first))
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .invalid, "the code is spent")
            #expect(try await devices.enter(userCode: authorization.userCode) == .unknown)
        }
    }

    /// A hand-over whose answer was not written gives the tokens back to the next poll; one whose answer was lost (no
    /// end noted within ``DeviceTokenHandOver/leaseSeconds``) gives them to a poll past the lease.
    static func deviceHandOverIsAtLeastOnce(_ backend: any StorageContractBackend) async throws {
        try await withDevices(backend) { devices, clock in
            let (deviceCode, authorization) = try #require(try await devices.create(client: device, scopes: nil, address: nil))
            #expect(try await devices.beginSignIn(userCode: authorization.userCode) == authorization)
            #expect(try await devices.approve(reference: authorization.reference, tokens: deviceTokens, keepingOutcome: []).approved)
            let failed = try #require(handOver(try await devices.poll(deviceCode: deviceCode, clientID: device.id)), "the tokens")
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .pending, "within the lease")
            try await devices.handOverFailed(failed)
            clock.advance(.seconds(1))
            let again = try #require(handOver(try await devices.poll(deviceCode: deviceCode, clientID: device.id)), "given back")
            #expect(again.tokens == deviceTokens)
            clock.advance(.seconds(1))
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .pending, "within the lease")
            clock.advance(.seconds(DeviceTokenHandOver.leaseSeconds))
            let lost = try #require(handOver(try await devices.poll(deviceCode: deviceCode, clientID: device.id)), "past the lease")
            #expect(lost.tokens == deviceTokens)
            try await devices.handedOver(lost)
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .invalid)
        }
    }

    /// The pace (RFC 8628 §3.5): a poll sooner than the interval is `slow_down` and adds 5 s to it; a poll by another
    /// client, or with a code never issued, is `invalid_grant`.
    static func devicePollsArePaced(_ backend: any StorageContractBackend) async throws {
        try await withDevices(backend, settings: deviceSettings(lifetime: 600, interval: 5)) { devices, clock in
            let (deviceCode, _) = try #require(try await devices.create(client: device, scopes: nil, address: nil))
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .pending)
            clock.advance(.seconds(2))
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .slowDown)
            clock.advance(.seconds(6))
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .slowDown, "the interval is 10 s now")
            clock.advance(.seconds(16))
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .pending, "15 s after, with 15 s")
            clock.advance(.seconds(16))
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: device.id) == .pending)
            #expect(try await devices.poll(deviceCode: deviceCode, clientID: "other") == .invalid, "another client's")
            #expect(try await devices.poll(deviceCode: "not-a-device-code", clientID: device.id) == .invalid)
        }
    }

    /// Past `codeLifetimeSeconds` a code is `expired_token`, whatever happened to it (approved tokens are not handed
    /// over), and no longer known, entered or confirmed; an approval after it takes no tokens.
    static func deviceCodesExpire(_ backend: any StorageContractBackend) async throws {
        try await withDevices(backend, settings: deviceSettings(lifetime: 60)) { devices, clock in
            let (waitingCode, waiting) = try #require(try await devices.create(client: device, scopes: nil, address: "192.0.2.7"))
            let (approvedCode, approved) = try #require(try await devices.create(client: device, scopes: nil, address: nil))
            let (_, late) = try #require(try await devices.create(client: device, scopes: nil, address: nil))
            #expect(try await devices.beginSignIn(userCode: approved.userCode) == approved)
            #expect(try await devices.beginSignIn(userCode: late.userCode) == late)
            #expect(try await devices.approve(reference: approved.reference, tokens: deviceTokens, keepingOutcome: []).approved)
            clock.advance(.seconds(61))
            #expect(try await devices.poll(deviceCode: waitingCode, clientID: device.id) == .expired)
            #expect(try await devices.poll(deviceCode: approvedCode, clientID: device.id) == .expired, "approved in time, polled too late")
            let lateApproval = try await devices.approve(reference: late.reference, tokens: deviceTokens, keepingOutcome: [])
            #expect(lateApproval.approved == false, "approved too late")
            #expect(try await devices.knows(userCode: waiting.userCode) == false)
            #expect(try await devices.enter(userCode: waiting.userCode) == .unknown, "an expired code is a wrong code")
            #expect(try await devices.beginSignIn(userCode: waiting.userCode) == nil)
            #expect(try await devices.refuse(userCode: waiting.userCode) == false)
            #expect(try await devices.waiting(from: "192.0.2.7") == 0)
        }
    }

    /// Entries of a code are counted up to `maximumEntriesPerCode`, a confirmation or a refusal among them; a refused
    /// code tells the device `access_denied` once; a denied sign-in too; reopening lets a code wait again; a refused one
    /// takes no tokens; `maximumPendingAuthorizations` bounds the codes waiting.
    static func deviceEntriesAndDecisions(_ backend: any StorageContractBackend) async throws {
        try await withDevices(backend, settings: deviceSettings(entries: 3, pending: 4)) { devices, _ in
            let (enteredCode, entered) = try #require(try await devices.create(client: device, scopes: nil, address: nil))
            for entry in 1...3 { #expect(try await devices.enter(userCode: entered.userCode) == .found(entered), "entry \(entry)") }
            #expect(try await devices.enter(userCode: entered.userCode) == .alreadyUsed, "the fourth entry")
            #expect(try await devices.beginSignIn(userCode: entered.userCode) == nil, "past its entries")
            #expect(try await devices.refuse(userCode: entered.userCode) == false, "past its entries")
            #expect(try await devices.poll(deviceCode: enteredCode, clientID: device.id) == .pending)

            let (refusedCode, refused) = try #require(try await devices.create(client: device, scopes: nil, address: nil))
            #expect(try await devices.beginSignIn(userCode: refused.userCode) == refused)
            #expect(try await devices.refuse(userCode: refused.userCode) == false, "signing in already")
            try await devices.reopen(reference: refused.reference)
            #expect(try await devices.refuse(userCode: refused.userCode), "waiting again after reopen")
            let refusedApproval = try await devices.approve(reference: refused.reference, tokens: deviceTokens, keepingOutcome: [])
            #expect(refusedApproval.approved == false, "a refused code takes no tokens")
            #expect(try await devices.poll(deviceCode: refusedCode, clientID: device.id) == .denied)
            #expect(try await devices.poll(deviceCode: refusedCode, clientID: device.id) == .invalid, "told once")

            let (deniedCode, denied) = try #require(try await devices.create(client: device, scopes: nil, address: nil))
            #expect(try await devices.beginSignIn(userCode: denied.userCode) == denied)
            try await devices.deny(reference: denied.reference)
            #expect(try await devices.approve(reference: denied.reference, tokens: deviceTokens, keepingOutcome: []).approved == false)
            #expect(try await devices.poll(deviceCode: deniedCode, clientID: device.id) == .denied)

            // The first code waits still; the decided ones were forgotten once the device was told.
            for _ in 0..<3 { _ = try #require(try await devices.create(client: device, scopes: nil, address: nil)) }
            #expect(try await devices.create(client: device, scopes: nil, address: nil) == nil, "4 codes wait already")
        }
    }

    /// An access token noted as issued to a client is that client's until it expires, and no other client's.
    static func deviceIssuedTokensAreNoted(_ backend: any StorageContractBackend) async throws {
        try await withDevices(backend) { devices, clock in
            try await devices.recordIssued(accessToken: "issued-token-1", to: device.id, forSeconds: 60)
            #expect(try await devices.wasIssued(accessToken: "issued-token-1", to: device.id))
            #expect(try await devices.wasIssued(accessToken: "issued-token-1", to: "other") == false)
            #expect(try await devices.wasIssued(accessToken: "issued-token-2", to: device.id) == false)
            clock.advance(.seconds(61))
            #expect(try await devices.wasIssued(accessToken: "issued-token-1", to: device.id) == false, "expired")
        }
    }
}
