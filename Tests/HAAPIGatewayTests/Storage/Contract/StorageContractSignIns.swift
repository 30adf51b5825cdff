import Foundation
import HAAPI
import HAAPIDemoServer
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// Sign-ins for the session store's checks: a demo upstream of the check's own, the gateway's client of it, and what a
/// store that keeps documents needs to bring one back (``SignInRestorer``).
struct StorageContractSignIns: Sendable {
    let client: HAAPIClient
    let dispatcher: CallbackDispatcher
    let restorer: SignInRestorer

    /// Runs `body` with a demo upstream and a client connected to it, shut down when it returns.
    static func with(_ body: (StorageContractSignIns) async throws -> Void) async throws {
        let demo = try await DemoServer.start(logger: StorageContract.silent)
        let logger = StorageContract.silent
        let configuration = GatewayHarness.configuration(demo: demo, sinkPath: "/dev/null")
        guard case .haapi(let upstreamConfiguration) = configuration.upstream else {
            await demo.shutdown()
            throw TestBrowser.BrowserError("no upstream")
        }
        let upstream = UpstreamConnection(configuration: upstreamConfiguration, logger: logger)
        do {
            try await upstream.attempt()
            let dispatcher = CallbackDispatcher(sinks: .fixed([]), logger: logger)
            let live = LiveSettings(configuration: configuration, templates: try TemplateLibrary(settings: configuration.templates))
            let restorer = SignInRestorer(
                upstream: upstream,
                dispatcher: dispatcher,
                live: live,
                devices: nil,
                metrics: GatewayMetrics(),
                logger: logger
            )
            try await body(StorageContractSignIns(client: try #require(upstream.client), dispatcher: dispatcher, restorer: restorer))
        } catch {
            try? await upstream.client?.shutdown()
            await demo.shutdown()
            throw error
        }
        try? await upstream.client?.shutdown()
        await demo.shutdown()
    }

    /// A sign-in begun at the upstream (its first step shown).
    func begun() async throws -> SignInSession {
        let session = SignInSession(flow: client.makeFlow(), dispatcher: dispatcher, logger: StorageContract.silent)
        try await session.begin(acceptLanguage: nil)
        return session
    }

    /// The notices a sign-in holds for its next page: what the checks change in one, to see that a store kept it.
    static func notices(of session: SignInSession) async -> [PageText] {
        await session.document().document.record.notices
    }
}
