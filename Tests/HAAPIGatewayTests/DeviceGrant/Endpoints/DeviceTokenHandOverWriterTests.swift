import HAAPI
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// What the token endpoint's answer does to the hand-over of a device's tokens once it is written, or not.
@Suite("Device tokens: the answer ends the hand-over")
struct DeviceTokenHandOverWriterTests {
    /// A device's connection: it takes the body, or is closed before it.
    struct Connection: ResponseBodyWriter {
        let closed: Bool
        let received: ReceivedBytes

        mutating func write(_ buffer: ByteBuffer) async throws {
            if closed { throw ChannelError.ioOnClosedChannel }
            received.append(buffer.readableBytes)
        }

        consuming func finish(_ trailingHeaders: HTTPFields?) async throws {}
    }

    final class ReceivedBytes: @unchecked Sendable {
        private(set) var count = 0
        func append(_ bytes: Int) { count += bytes }
    }

    let store: MemoryDeviceAuthorizations
    let deviceCode: String
    let handOver: DeviceTokenHandOver

    init() async throws {
        var settings = DeviceSettings()
        settings.enabled = true
        settings.clients = [MemoryDeviceAuthorizationsTests.client]
        store = MemoryDeviceAuthorizations(settings: .fixed(settings))
        let (deviceCode, authorization) = try #require(
            await store.create(client: MemoryDeviceAuthorizationsTests.client, scopes: nil, address: nil)
        )
        #expect(await store.beginSignIn(userCode: authorization.userCode) == authorization)
        #expect(await store.approve(reference: authorization.reference, tokens: MemoryDeviceAuthorizationsTests.tokens))
        self.deviceCode = deviceCode
        handOver = DeviceTokenHandOver(tokens: MemoryDeviceAuthorizationsTests.tokens, reference: authorization.reference)
        #expect(await store.poll(deviceCode: deviceCode, clientID: MemoryDeviceAuthorizationsTests.client.id) == .tokens(handOver))
    }

    func write(to connection: Connection) async throws {
        let writer = DeviceTokenHandOverWriter(store: store, logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
        let response = writer.response(DeviceAuthorizationController.json(["access_token": "canary-access-token"]), handingOver: handOver)
        try await response.body.write(connection)
    }

    func poll() async -> DevicePollAnswer {
        await store.poll(deviceCode: deviceCode, clientID: MemoryDeviceAuthorizationsTests.client.id)
    }

    @Test("an answer written to the device's connection spends the code: the next poll is invalid_grant")
    func writtenSpendsTheCode() async throws {
        let received = ReceivedBytes()
        try await write(to: Connection(closed: false, received: received))
        #expect(received.count > 0)
        #expect(await poll() == .invalid)
    }

    /// A store that does not answer for a while (its database restarting, or known to be down and failing every call at
    /// once): the end is asked again until it answers, within the writer's patience, so the device is not handed the
    /// same tokens again. Counting attempts (20, half a second apart) gave up after 10 s of a database that failed at once,
    /// and the 10-minute replica soak saw a device get its tokens a second time after the database's 10 s restart.
    @Test(
        "a store that does not answer for a while: the end is noted once it answers, within the writer's patience, however many attempts fail at once"
    )
    func anEndIsNotedOnceTheStoreAnswers() async throws {
        // Down for 50 calls, each failing at once: more than the 20 attempts counted before.
        let down = StoreDown(forCalls: 50, inner: store)
        let writer = DeviceTokenHandOverWriter(
            store: down,
            logger: Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }),
            // The patience is time, and the test counts attempts: ten minutes, which 50 attempts 2 ms apart never reach
            // however starved the machine (at 60 s a run with every test started at once gave up after 44).
            patience: .seconds(600),
            retryDelay: .milliseconds(2)
        )
        let response = writer.response(DeviceAuthorizationController.json(["access_token": "canary-access-token"]), handingOver: handOver)
        try await response.body.write(Connection(closed: false, received: ReceivedBytes()))
        #expect(down.failures == 50, "every call failed while it was down: \(down.failures); \(MachineLoad.description)")
        #expect(await poll() == .invalid, "the end was noted once the store answered: the code is spent")
    }

    /// A device authorization store whose first `calls` hand-over ends fail at once (as a database known to be down).
    final class StoreDown: DeviceAuthorizationStore, @unchecked Sendable {
        let calls: Int
        let inner: any DeviceAuthorizationStore
        private(set) var failures = 0

        init(forCalls calls: Int, inner: any DeviceAuthorizationStore) {
            self.calls = calls
            self.inner = inner
        }

        func handedOver(_ handOver: DeviceTokenHandOver) async throws(GatewayError) {
            guard failures >= calls else {
                failures += 1
                throw GatewayError(.storeUnavailable, .sessionStoreUnavailable)
            }
            try await inner.handedOver(handOver)
        }

        func create(
            client: DeviceClient,
            scopes: [String]?,
            address: String?
        ) async throws(GatewayError) -> (
            deviceCode: String, authorization: DeviceAuthorization
        )? { try await inner.create(client: client, scopes: scopes, address: address) }
        func waiting(from address: String) async throws(GatewayError) -> Int { try await inner.waiting(from: address) }
        func enter(userCode: String) async throws(GatewayError) -> UserCodeEntry { try await inner.enter(userCode: userCode) }
        func beginSignIn(userCode: String) async throws(GatewayError) -> DeviceAuthorization? { try await inner.beginSignIn(userCode: userCode) }
        func knows(userCode: String) async throws(GatewayError) -> Bool { try await inner.knows(userCode: userCode) }
        func reopen(reference: String) async throws(GatewayError) { try await inner.reopen(reference: reference) }
        func refuse(userCode: String) async throws(GatewayError) -> Bool { try await inner.refuse(userCode: userCode) }
        func approve(reference: String, tokens: OAuthTokens, keepingOutcome entries: [CallbackEntry]) async throws(GatewayError) -> DeviceApproval {
            try await inner.approve(reference: reference, tokens: tokens, keepingOutcome: entries)
        }
        func deny(reference: String) async throws(GatewayError) { try await inner.deny(reference: reference) }
        func poll(deviceCode: String, clientID: String) async throws(GatewayError) -> DevicePollAnswer {
            try await inner.poll(deviceCode: deviceCode, clientID: clientID)
        }
        func handOverFailed(_ handOver: DeviceTokenHandOver) async throws(GatewayError) { try await inner.handOverFailed(handOver) }
        func recordIssued(accessToken: String, to clientID: String, forSeconds seconds: Int) async throws(GatewayError) {
            try await inner.recordIssued(accessToken: accessToken, to: clientID, forSeconds: seconds)
        }
        func wasIssued(accessToken: String, to clientID: String) async throws(GatewayError) -> Bool {
            try await inner.wasIssued(accessToken: accessToken, to: clientID)
        }
    }

    @Test("an answer that could not be written gives the tokens back: the next poll gets them at once")
    func unwrittenGivesTheTokensBack() async throws {
        await #expect(throws: ChannelError.self) { try await write(to: Connection(closed: true, received: ReceivedBytes())) }
        #expect(await poll() == .tokens(handOver))
    }
}
