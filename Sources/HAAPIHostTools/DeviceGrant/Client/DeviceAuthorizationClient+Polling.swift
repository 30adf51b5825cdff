import HAAPI
import Logging

extension DeviceAuthorizationClient {
    /// Polls the token endpoint for the tokens of `grant` until the person has finished (RFC 8628 §3.4–3.5).
    ///
    /// The first request goes one interval after the call, and two requests are never closer than the interval:
    /// `authorization_pending` keeps it, `slow_down` adds 5 s to it for the rest of the polling, and a transient failure
    /// (no connection, a timeout, HTTP 5xx or 429, `temporarily_unavailable`) doubles the wait before the next request, up to
    /// ``maximumBackoff`` (never below the interval). Polling stops when the code expires (`expires_in` after the call,
    /// or `expired_token`) or `timeout` passes, whichever comes first.
    /// - Parameters:
    ///   - grant: The device authorization.
    ///   - timeout: The device's own limit, if any.
    ///   - clock: Measures the waits (tests pass a clock of their own).
    /// - Returns: How it ended; the tokens on success.
    public func poll<C: Clock>(_ grant: DeviceAuthorizationGrant, timeout: Duration? = nil, clock: C) async -> DevicePollOutcome
    where C.Duration == Duration {
        let start = clock.now
        let expiry = start.advanced(by: grant.expiresIn)
        let limit = timeout.map { start.advanced(by: $0) }
        let deadline = limit.map { min($0, expiry) } ?? expiry
        let endedBy: DevicePollOutcome = deadline == expiry ? .expired : .timedOut
        var interval = grant.interval
        var failures = 0
        while true {
            let wait = failures == 0 ? interval : max(interval, min(Self.maximumBackoff, interval * (1 << min(failures, 16))))
            let next = clock.now.advanced(by: wait)
            do {
                if next >= deadline {
                    try await clock.sleep(until: deadline, tolerance: nil)
                    return endedBy
                }
                try await clock.sleep(until: next, tolerance: nil)
            } catch {
                return .interrupted
            }
            let answer: TokenExchangeOutcome
            do {
                answer = try await tokenManager.exchange(deviceCode: grant.deviceCode)
            } catch  where Self.isTransient(error) {
                failures += 1
                var metadata: Logger.Metadata = ["error": "\(error.code)", "failures": .stringConvertible(failures)]
                if let status = error.status { metadata["status"] = .stringConvertible(status) }
                logger.warning("the gateway's token endpoint could not be asked; polling again later", metadata: metadata)
                continue
            } catch {
                return .failed(error)
            }
            switch answer {
            case .tokens(let tokens):
                return .signedIn(tokens)
            case .oauthError(let error) where error.error == "temporarily_unavailable":
                // The gateway is busy for now (RFC 6749 §4.1.2.1's code, used by token endpoints too): as a 5xx.
                failures += 1
                logger.warning(
                    "the gateway's token endpoint is temporarily unavailable; polling again later",
                    metadata: ["failures": .stringConvertible(failures)]
                )
                continue
            case .oauthError(let error):
                failures = 0
                switch error.error {
                case "authorization_pending": continue
                case "slow_down": interval += .seconds(5)
                case "access_denied": return .denied(error)
                case "expired_token": return .expired
                default: return .refused(error)
                }
            }
        }
    }

    /// Polls with the continuous clock (see ``poll(_:timeout:clock:)``).
    /// - Parameters:
    ///   - grant: The device authorization.
    ///   - timeout: The device's own limit, if any.
    public func poll(_ grant: DeviceAuthorizationGrant, timeout: Duration? = nil) async -> DevicePollOutcome {
        await poll(grant, timeout: timeout, clock: ContinuousClock())
    }

    /// Whether a failed token request is worth repeating later: the network or the gateway failed for now.
    static func isTransient(_ error: HAAPIError) -> Bool {
        switch error.code {
        case .transport, .timeout, .connectionRefused, .nameResolution: true
        case .upstreamStatus: (error.status ?? 0) >= 500 || error.status == 429
        default: false
        }
    }
}
