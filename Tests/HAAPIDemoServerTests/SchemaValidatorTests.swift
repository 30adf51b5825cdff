import Foundation
import Testing

@Suite struct SchemaValidatorTests {
    @Test func validatorRejectsAnInvalidBody() throws {
        let invalid = Data(#"{"type":"polling-step","properties":{"status":"maybe"},"actions":[]}"#.utf8)
        #expect(throws: SchemaValidator.Failure.self) { try SchemaValidator.validate([invalid]) }
    }

    @Test func validatorAcceptsAValidBody() throws {
        let valid = Data(#"{"type":"continue-same-step","messages":[{"text":"ok","classList":["info"]}]}"#.utf8)
        #expect(try SchemaValidator.validate([valid]) == 1)
    }
}
