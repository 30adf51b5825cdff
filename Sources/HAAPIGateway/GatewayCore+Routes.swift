import Crypto
import Foundation
import Hummingbird

extension GatewayCore {
    /// The sign-in listener's routes, behind its middlewares (client address, the request's span when tracing, request
    /// log, security headers, error pages, trusted hosts, session check-in), for what `configuration` enables; and the
    /// health controller, which the metrics listener serves too.
    func router(
        configuration: GatewayConfiguration,
        demoOutbox: (@Sendable () -> [UInt8])?
    ) -> (router: Router<GatewayRequestContext>, health: HealthController) {
        let router = Router(context: GatewayRequestContext.self)
        router.middlewares.add(ClientAddressMiddleware(trustedProxies: configuration.server.trustedProxies))
        if let marks = services.traceMarks {
            let cookieName = BrowserSignIns(services: services).cookieName
            router.middlewares.add(RequestSpanMiddleware(trustedParents: configuration.tracing.trustedParents, marks: marks, cookieName: cookieName))
        }
        router.middlewares.add(RequestLogMiddleware())
        router.middlewares.add(SecurityHeadersMiddleware(live: live))
        router.middlewares.add(ErrorPageMiddleware(live: live))
        router.middlewares.add(TrustedHostMiddleware(server: configuration.server))
        router.middlewares.add(SessionCheckInMiddleware(store: store))
        let signIns = BrowserSignIns(services: services)
        let health = HealthController(
            upstream: upstream,
            drain: drain,
            probe: UpstreamProbe(upstream: upstream),
            live: live,
            storageReadiness: storage.readiness
        )
        if configuration.server.healthEndpoints { health.register(on: router) }
        SignInController(
            services: services,
            kioskTickets: HMACToken(keys: HMACToken.keys(for: "kiosk final pages", derivedFrom: storage.sharedKeys))
        ).register(on: router)
        AssetController(live: live).register(on: router)
        if let demoOutbox { DemoOutboxController(document: demoOutbox).register(on: router) }
        ExternalBrowserController(services: services, signIns: signIns).register(on: router)
        if configuration.startLinks.enabled {
            let verifier = StartLinkVerifier(settings: live.source(\.startLinks), ledger: storage.startLinkLedger())
            StartLinkController(services: services, signIns: signIns, verifier: verifier).register(on: router)
        }
        if configuration.devices.enabled { registerDeviceRoutes(on: router, signIns: signIns, configuration: configuration) }
        if let pairing = configuration.pairing {
            let gate = PairingGate(ticket: pairing.ticket)
            PairingController(services: services, signIns: signIns, gate: gate, hostName: pairing.hostName).register(on: router)
        }
        return (router, health)
    }

    /// The device grant's endpoints (RFC 8628) and its verification pages.
    private func registerDeviceRoutes(on router: Router<GatewayRequestContext>, signIns: BrowserSignIns, configuration: GatewayConfiguration) {
        let sealer = SealedRefreshToken(keys: refreshTokenKeys(configured: configuration.devices.refreshTokenKeys))
        DeviceAuthorizationController(services: services, store: devices, sealer: sealer).register(on: router)
        DeviceVerificationController(
            services: services,
            signIns: signIns,
            store: devices,
            limiter: codeAttempts,
            formTokens: HMACToken(keys: HMACToken.keys(for: "device form tokens", derivedFrom: storage.sharedKeys))
        ).register(on: router)
    }

    /// The keys refresh tokens handed to devices are sealed under, which outlive a process: the configured keys, else
    /// (replicas) keys derived from the sessions' encryption keys, else a key of this process's own (warned about).
    private func refreshTokenKeys(configured: [Data]) -> [Data] {
        if !configured.isEmpty { return configured }
        if let sharedKeys = storage.sharedKeys {
            let derived = SealedRefreshToken.derivedKeys(from: sharedKeys)
            if !derived.isEmpty { return derived }
        }
        logger.warning(
            "\(ConfigurationKey.devicesRefreshTokenKeyFile.path) is not set: refresh tokens handed to devices stop working when the gateway restarts"
        )
        return [SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }]
    }
}
