import Testing

@testable import HAAPI

/// ``HAAPIDeadline``: a chain of upstream requests bounded as a whole.
@Suite("A deadline for a whole chain of requests")
struct HAAPIDeadlineTests {
    @Test(
        "without a deadline each request gets the configured timeout; within one, at most what is left, the earlier deadline winning; none once it passed"
    )
    func remainingTime() async throws {
        #expect(HAAPIDeadline.remaining(of: .seconds(15)) == .seconds(15))
        try await HAAPIDeadline.within(.seconds(2)) {
            let left = try #require(HAAPIDeadline.remaining(of: .seconds(15)))
            #expect(left <= .seconds(2) && left > .seconds(1))
            #expect(HAAPIDeadline.remaining(of: .milliseconds(100)) == .milliseconds(100), "a shorter timeout stays")
            try await HAAPIDeadline.within(.seconds(60)) {
                let nested = try #require(HAAPIDeadline.remaining(of: .seconds(15)))
                #expect(nested <= .seconds(2), "a later deadline inside an earlier one does not extend it")
            }
        }
        await HAAPIDeadline.within(.milliseconds(20)) {
            try? await Task.sleep(for: .milliseconds(50))
            #expect(HAAPIDeadline.remaining(of: .seconds(15)) == nil)
        }
    }
}
