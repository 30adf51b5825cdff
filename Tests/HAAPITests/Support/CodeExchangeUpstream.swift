import Foundation
import Logging
import Testing

@testable import HAAPI

/// A scripted upstream whose authorize request answers the authorization response at once and whose token endpoint
/// answers code exchanges as a test says: for tests of the code exchange alone.
enum CodeExchangeUpstream {
    typealias Up = TestUpstream

    /// Runs `body` with a client of an upstream whose code exchanges are answered by `answer`.
    static func run(
        answering answer: @escaping @Sendable (RecordedRequest) -> ScriptedReply,
        logger: Logger = Logger(label: "haapi"),
        _ body: @Sendable (HAAPIClient, RequestLog) async throws -> Void
    ) async throws {
        let handler: @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply = { request, _ in
            switch request.path {
            case Up.tokenPath where request.formValues["grant_type"] == "authorization_code": answer(request)
            case Up.tokenPath: .haapiToken()
            default: .step(Up.authorizationResponseStep(state: request.queryValues["state"] ?? ""))
            }
        }
        try await ScriptedUpstream.run(handler) { base, log in
            let client = try await HAAPIClient(configuration: Up.configuration(base), logger: logger)
            defer { Task { try? await client.shutdown() } }
            try await body(client, log)
        }
    }

    /// Starts a new flow of `client` and exchanges the code of its authorization response.
    static func signIn(_ client: HAAPIClient) async throws -> (flow: HAAPIFlow, outcome: TokenExchangeOutcome) {
        let flow = client.makeFlow()
        let authorization = try #require(try await flow.start().representation)
        return (flow, try await flow.exchangeCode(from: authorization))
    }

    /// The code exchanges the upstream received, in order.
    static func exchanges(_ log: RequestLog) async -> [RecordedRequest] {
        await log.requests(path: Up.tokenPath).filter { $0.formValues["grant_type"] == "authorization_code" }
    }
}
