import Foundation
import HAAPIDemoServer
import HAAPIGateway
import HAAPIGatewayPostgres
import HummingbirdTesting
import Logging

@testable import GatewayTestSupport

/// Two gateways in this process as two replicas: one PostgreSQL database of the suite's server for their sessions, one
/// strict demo upstream behind an ``UpstreamProxy`` (which records and can slow every upstream call), a file sink each.
struct SharedReplicas: Sendable {
    /// The replicas' base URLs.
    let urls: [String]
    let demo: RunningDemoServer
    let proxy: UpstreamProxy
    let metrics: [GatewayMetrics]
    let database: StorageTestDatabase
    /// The first replica's file sink (the second's is beside it, with `.second` added).
    let sinkPath: String

    /// Runs `body` with two replicas on a fresh database; the second seals with `secondKeys` when given (else `keys`).
    /// The upstream is the strict demo unless `demoConfiguration` says otherwise.
    static func run(
        keys: [SessionEncryptionKey],
        secondKeys: [SessionEncryptionKey]? = nil,
        demoConfiguration: DemoServerConfiguration = .strict,
        configure: @escaping @Sendable (inout GatewayConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (SharedReplicas) async throws -> Void
    ) async throws {
        let database = try await StorageTestDatabase.make()
        let url = try database.url()
        let metrics = [GatewayMetrics(), GatewayMetrics()]
        let quiet = Logger(label: "replica", factory: { _ in SwiftLogNoOpLogHandler() })
        try await GatewayHarness.withProxiedGateway(
            logger: quiet,
            demoConfiguration: demoConfiguration,
            metrics: metrics[0],
            configure: {
                $0.sessions.store = .postgres(PostgresStoreSettings(url: url, encryptionKeys: keys))
                configure(&$0)
            }
        ) { first, demo, sinkPath, proxy in
            var configuration = GatewayHarness.configuration(demo: demo, sinkPath: sinkPath + ".second")
            configuration.sessions.store = .postgres(PostgresStoreSettings(url: url, encryptionKeys: secondKeys ?? keys))
            configure(&configuration)
            let application = try await Gateway.makeApplication(
                configuration: configuration,
                logger: quiet,
                metrics: metrics[1],
                storageChoice: .bySessionsStore
            )
            try await application.test(.live) { client in
                let replicas = SharedReplicas(
                    urls: [first.baseURL, "http://127.0.0.1:\(client.port!)"],
                    demo: demo,
                    proxy: proxy,
                    metrics: metrics,
                    database: database,
                    sinkPath: sinkPath
                )
                try await replicas.waitUntilReady()
                try await body(replicas)
            }
        }
    }

    /// A browser whose requests go to the replicas in turn.
    func browser() -> TestBrowser { TestBrowser(roundRobin: urls) }

    /// How many outcomes the replicas' sinks accepted, together.
    var delivered: Int {
        metrics.map { metrics in
            ScrapedForm.matches(#"haapi_gateway_callback_deliveries_total\{result="delivered"\} (\d+)"#, in: metrics.exposition()).compactMap {
                Int($0)
            }.reduce(0, +)
        }.reduce(0, +)
    }

    /// Waits until both replicas have prepared the tables (`/readyz` answers 200).
    private func waitUntilReady() async throws {
        for url in urls {
            try await TestBrowser.using(url) { browser in
                for _ in 0..<80 {
                    if try await browser.get("/readyz").status == 200 { return }
                    try await Task.sleep(for: .milliseconds(250))
                }
                throw TestBrowser.BrowserError("\(url) never became ready")
            }
        }
    }
}
