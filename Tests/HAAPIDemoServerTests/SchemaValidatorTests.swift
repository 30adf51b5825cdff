import Foundation
import Testing

@testable import GatewayTestSupport

/// The validator itself; without Python's jsonschema this suite is skipped, and so is the schema check each demo test
/// makes when it finishes (``DemoServerHarness/finish(validateSchema:)``).
@Suite(.enabled(if: TestTools.schemaValidatorAvailable, "needs Python's jsonschema (pip install jsonschema; .ci/run installs it)"))
struct SchemaValidatorTests {
    @Test func validatorRejectsAnInvalidBody() async throws {
        let invalid = Data(#"{"type":"polling-step","properties":{"status":"maybe"},"actions":[]}"#.utf8)
        await #expect(throws: SchemaValidator.Failure.self) { try await SchemaValidator.validate([invalid]) }
    }

    @Test func validatorAcceptsAValidBody() async throws {
        let valid = Data(#"{"type":"continue-same-step","messages":[{"text":"ok","classList":["info"]}]}"#.utf8)
        #expect(try await SchemaValidator.validate([valid]) == 1)
    }
}
