import Foundation
import HAAPI
import Logging

/// `login --via`: one sign-in at a central gateway as a device client (RFC 8628). Reads the gateway's metadata, asks for
/// a device authorization, hands the codes to the caller to show, and polls until the person has signed in, declined,
/// or the code or ``timeoutSeconds`` ran out.
public struct DeviceLogin: Sendable {
    /// The central gateway's URL (its issuer identifier).
    public let gateway: URL
    /// Who the device is at the gateway.
    public let credentials: DeviceClientCredentials
    /// The device's own limit on the wait.
    public let timeoutSeconds: Int
    /// The scopes to ask for; none lets the gateway choose.
    public var scopes: [String] = []

    /// Creates a sign-in.
    /// - Parameters:
    ///   - gateway: The gateway's URL.
    ///   - credentials: The device client.
    ///   - timeoutSeconds: How long to wait at most.
    public init(gateway: URL, credentials: DeviceClientCredentials, timeoutSeconds: Int) {
        self.gateway = gateway
        self.credentials = credentials
        self.timeoutSeconds = timeoutSeconds
    }

    /// Signs in.
    /// - Parameters:
    ///   - transport: Sends the requests; by default an HTTP client of its own.
    ///   - clock: Measures the polling waits.
    ///   - logger: Receives warnings when polling is retried; never secrets.
    ///   - announce: Called with the device authorization, to show the person where to go and the code.
    /// - Returns: How the sign-in ended.
    /// - Throws: ``DeviceClientError`` when no device authorization could be had (nothing was shown then).
    public func run<C: Clock>(
        transport: (any HAAPITransport)? = nil,
        clock: C,
        logger: Logger,
        announce: (DeviceAuthorizationGrant) -> Void
    ) async throws(DeviceClientError) -> LoginOutcome where C.Duration == Duration {
        let device = try await DeviceAuthorizationClient.connect(to: gateway, credentials: credentials, transport: transport, logger: logger)
        let grant: DeviceAuthorizationGrant
        do {
            grant = try await device.requestAuthorization(scopes: scopes)
        } catch {
            try? await device.shutdown()
            throw error
        }
        announce(grant)
        let outcome = await device.poll(grant, timeout: .seconds(timeoutSeconds), clock: clock)
        try? await device.shutdown()
        return LoginOutcome(outcome, timeoutSeconds: timeoutSeconds)
    }

    /// Signs in, measuring the waits with the continuous clock (see ``run(transport:clock:logger:announce:)``).
    /// - Parameters:
    ///   - logger: Receives warnings when polling is retried; never secrets.
    ///   - announce: Called with the device authorization, to show the person where to go and the code.
    public func run(logger: Logger, announce: (DeviceAuthorizationGrant) -> Void) async throws(DeviceClientError) -> LoginOutcome {
        try await run(transport: nil, clock: ContinuousClock(), logger: logger, announce: announce)
    }
}
