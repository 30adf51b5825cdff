import Foundation
import Testing

@Suite struct SchemaValidatorTests {
    @Test func validatorRejectsAnInvalidBody() async throws {
        let invalid = Data(#"{"type":"polling-step","properties":{"status":"maybe"},"actions":[]}"#.utf8)
        await #expect(throws: SchemaValidator.Failure.self) { try await SchemaValidator.validate([invalid]) }
    }

    @Test func validatorAcceptsAValidBody() async throws {
        let valid = Data(#"{"type":"continue-same-step","messages":[{"text":"ok","classList":["info"]}]}"#.utf8)
        #expect(try await SchemaValidator.validate([valid]) == 1)
    }
}
