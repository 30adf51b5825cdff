import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

@Suite("Failed-post limiter")
struct FailedPostLimiterTests {
    @Test(
        "the bound holds per session and per address in a sliding window; Retry-After is when the oldest failure leaves it; forget clears a session only"
    )
    func slidingWindow() async {
        let clock = TestClock()
        let limiter = FailedPostLimiter(
            settings: .fixed(SessionSettings(maximumFailedPostsPerSession: 2, maximumFailedPostsPerAddress: 3, failedPostWindowSeconds: 60)),
            now: { clock.instant }
        )
        #expect(await limiter.retryAfter(session: "a", address: "10.0.0.1") == nil)
        await limiter.recordFailure(session: "a", address: "10.0.0.1")
        clock.advance(.seconds(10))
        await limiter.recordFailure(session: "a", address: "10.0.0.1")
        #expect(await limiter.retryAfter(session: "a", address: "10.0.0.1") == 50, "the first failure leaves the window in 50 s")
        #expect(await limiter.retryAfter(session: "b", address: "10.0.0.2") == nil, "other sessions and addresses are not affected")
        await limiter.recordFailure(session: "b", address: "10.0.0.1")
        #expect(await limiter.retryAfter(session: "c", address: "10.0.0.1") == 50, "the address is at its bound of 3")
        await limiter.forget(session: "a")
        #expect(await limiter.retryAfter(session: "a", address: "10.0.0.9") == nil)
        #expect(await limiter.retryAfter(session: "c", address: "10.0.0.1") != nil, "forgetting a session keeps the address's count")
        clock.advance(.seconds(51))
        #expect(await limiter.retryAfter(session: "c", address: "10.0.0.1") == nil, "one failure left the window")
    }
}
