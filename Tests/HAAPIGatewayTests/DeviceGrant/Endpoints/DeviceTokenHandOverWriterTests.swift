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
        store = MemoryDeviceAuthorizations(settings: settings)
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

    @Test("an answer that could not be written gives the tokens back: the next poll gets them at once")
    func unwrittenGivesTheTokensBack() async throws {
        await #expect(throws: ChannelError.self) { try await write(to: Connection(closed: true, received: ReceivedBytes())) }
        #expect(await poll() == .tokens(handOver))
    }
}
