import HAAPI
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// The memory store's hand-over of a device's tokens (``DeviceTokenHandOver``), on a clock the test moves.
@Suite("Device tokens handed over from memory")
struct MemoryDeviceAuthorizationsTests {
    static let client = DeviceClient(id: "build-host", name: "Build host 3", secret: "build-host-secret-0123456789")
    static let tokens = OAuthTokens(
        accessToken: "canary-access-token",
        expiresIn: 300,
        refreshToken: "canary-refresh-token",
        tokenType: "Bearer",
        scope: nil,
        idToken: nil
    )

    let clock = TestClock()

    func store(lifetime: Int = 60) -> MemoryDeviceAuthorizations {
        var settings = DeviceSettings()
        settings.enabled = true
        settings.clients = [Self.client]
        settings.codeLifetimeSeconds = lifetime
        settings.pollIntervalSeconds = 5
        let clock = clock
        return MemoryDeviceAuthorizations(settings: .fixed(settings), now: { clock.instant })
    }

    func advance(_ seconds: Int) {
        clock.advance(.seconds(seconds))
    }

    /// A code whose sign-in succeeded: its device code and the hand-over its tokens make.
    func approved(in store: MemoryDeviceAuthorizations) async throws -> (String, DeviceTokenHandOver) {
        let (deviceCode, authorization) = try #require(await store.create(client: Self.client, scopes: nil, address: nil))
        #expect(await store.beginSignIn(userCode: authorization.userCode) == authorization)
        #expect(await store.approve(reference: authorization.reference, tokens: Self.tokens))
        return (deviceCode, DeviceTokenHandOver(tokens: Self.tokens, reference: authorization.reference))
    }

    @Test("the tokens go to one poll; another poll waits while the hand-over is under way; once it ends the code is spent")
    func handedOverOnce() async throws {
        let store = store()
        let (deviceCode, handOver) = try await approved(in: store)
        #expect(await store.poll(deviceCode: deviceCode, clientID: Self.client.id) == .tokens(handOver))
        #expect(await store.poll(deviceCode: deviceCode, clientID: Self.client.id) == .pending)
        await store.handedOver(handOver)
        #expect(await store.poll(deviceCode: deviceCode, clientID: Self.client.id) == .invalid)
    }

    @Test(
        "a hand-over never ended offers the same tokens again past its 2 s lease, never sooner; a failed answer gives them back at once; a failed sign-in cannot deny them; past expires_in expired_token"
    )
    func aLostHandOverIsOfferedAgain() async throws {
        let store = store(lifetime: 60)
        let (deviceCode, handOver) = try await approved(in: store)
        #expect(await store.poll(deviceCode: deviceCode, clientID: Self.client.id) == .tokens(handOver))
        await store.deny(reference: handOver.reference)
        advance(1)
        #expect(await store.poll(deviceCode: deviceCode, clientID: Self.client.id) == .pending, "within the lease")
        #expect(await store.poll(deviceCode: deviceCode, clientID: Self.client.id) == .pending, "a poll within the lease does not renew it")
        advance(1)
        #expect(await store.poll(deviceCode: deviceCode, clientID: Self.client.id) == .tokens(handOver), "the same tokens, past the lease")
        await store.handOverFailed(handOver)
        #expect(await store.poll(deviceCode: deviceCode, clientID: Self.client.id) == .tokens(handOver), "given back at once")
        await store.handedOver(handOver)
        #expect(await store.poll(deviceCode: deviceCode, clientID: Self.client.id) == .invalid)

        let (lateCode, late) = try await approved(in: store)
        #expect(await store.poll(deviceCode: lateCode, clientID: Self.client.id) == .tokens(late))
        advance(61)
        #expect(await store.poll(deviceCode: lateCode, clientID: Self.client.id) == .expired, "an open hand-over past expires_in")
        #expect(await store.poll(deviceCode: lateCode, clientID: Self.client.id) == .invalid)
    }
}
