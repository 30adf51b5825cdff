import Foundation
import HAAPIDemoServer
import HAAPIGateway
import HummingbirdTesting
import Logging
import NIOSSL

@testable import GatewayTestSupport

extension GatewayHarness {
    /// Like ``withGateway(logger:demoConfiguration:now:drain:metrics:reloader:configure:_:)`` with an ``UpstreamProxy``
    /// between the gateway and the demo server (the demo's public URL is the proxy's, so every href leads through it).
    /// With `proxyTLS`, the proxy listens on HTTPS with the test CA's server certificate.
    static func withProxiedGateway(
        logger: Logger = Logger(label: "gateway-test"),
        proxyTLS: TLSConfiguration? = nil,
        demoConfiguration: DemoServerConfiguration = .strict,
        metrics: GatewayMetrics = GatewayMetrics(),
        discoveryFaultAtStart: UpstreamFault? = nil,
        configure: @escaping @Sendable (inout GatewayConfiguration) -> Void = { _ in },
        _ body: @escaping @Sendable (TestBrowser, RunningDemoServer, String, UpstreamProxy) async throws -> Void
    ) async throws {
        // The demo must know the proxy's URL before it starts, so it binds a port that was free a moment ago; when
        // another test took it in between, the demo does not start and a fresh port is tried.
        for attempt in 1...3 {
            let demoPort = try await UpstreamProxy.freeLoopbackPort()
            let proxy = UpstreamProxy(targetPort: demoPort)
            proxy.discoveryFault = discoveryFaultAtStart
            let started = StartSignal()
            do {
                try await proxy.application(tls: proxyTLS).test(.live) { proxyClient in
                    var proxied = demoConfiguration
                    proxied.port = demoPort
                    proxied.publicBaseURL = "\(proxyTLS == nil ? "http" : "https")://127.0.0.1:\(proxyClient.port!)"
                    try await withGateway(logger: logger, demoConfiguration: proxied, metrics: metrics, configure: configure) {
                        browser,
                        demo,
                        sinkPath in
                        started.fire()
                        try await body(browser, demo, sinkPath, proxy)
                    }
                }
                return
            } catch is DemoServerError where !started.fired && attempt < 3 {
                continue
            }
        }
    }
}
