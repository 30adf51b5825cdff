import Foundation
import HAAPI
import Logging
import Testing

@testable import HAAPIGateway

/// The outcome documents an application matches: stable JSON (sorted keys), `signInId` on every one of a sign-in,
/// `subject`, `claims` and `claimsProblem` on success.
@Suite("Outcome documents")
struct CompletionOutcomeTests {
    static let tokens = OAuthTokens(accessToken: "a", expiresIn: 300, refreshToken: nil, tokenType: "Bearer", scope: "openid", idToken: "i")
    static let signIn = SignInReference(id: "0123456789abcdefABCDEF")

    static func text(_ outcome: CompletionOutcome) throws -> String { String(decoding: try outcome.encoded(), as: UTF8.self) }

    @Test("success, error and cancelled carry signInId; success its subject, claims (JSON values as given) and claimsProblem, in sorted keys")
    func documents() throws {
        let identity = CompletionOutcome.Identity(
            subject: "user-7",
            claims: ["email": "demo@example.com", "age": 42, "address": .object(["country": "SE"]), "roles": .array(["a", "b"])],
            claimsProblem: "userinfo: the userinfo endpoint answered HTTP 503"
        )
        #expect(
            try Self.text(.success(Self.tokens, signIn: Self.signIn, identity: identity))
                == #"{"claims":{"address":{"country":"SE"},"age":42,"email":"demo@example.com","roles":["a","b"]},"claimsProblem":"userinfo: the userinfo endpoint answered HTTP 503","outcome":"success","signInId":"0123456789abcdefABCDEF","subject":"user-7","token":{"accessToken":"a","expiresIn":300,"idToken":"i","scope":"openid","tokenType":"Bearer"}}"#
        )
        #expect(
            try Self.text(
                .failure(
                    .init(error: "invalid_id_token", errorDescription: "the ID token's nonce is not the one the authorize request sent"),
                    signIn: Self.signIn
                )
            )
                == #"{"error":{"error":"invalid_id_token","errorDescription":"the ID token's nonce is not the one the authorize request sent"},"outcome":"error","signInId":"0123456789abcdefABCDEF"}"#
        )
        #expect(try Self.text(.cancelled(signIn: Self.signIn)) == #"{"outcome":"cancelled","signInId":"0123456789abcdefABCDEF"}"#)
        // Without claims configured there is no claims member; without a sign-in (a file keep rewrote), no signInId.
        #expect(
            try Self.text(.success(Self.tokens, signIn: Self.signIn, identity: .init(subject: "user-7"))).contains(#""subject":"user-7","token""#)
        )
        #expect(!(try Self.text(.success(Self.tokens))).contains("signInId"))
        #expect(try Self.text(.cancelled) == #"{"outcome":"cancelled"}"#)
    }

    @Test("a sign-in's id is 128 random bits, base64url, and the flow id of its log lines")
    func signInIDs() async throws {
        let configuration = HAAPIClientConfiguration(
            baseURL: URL(string: "https://login.example")!,
            endpoints: HAAPIEndpoints(authorization: URL(string: "https://login.example/a")!, token: URL(string: "https://login.example/t")!),
            clientID: "c",
            clientAuthentication: .secretBasic("s"),
            redirectURI: "haapi:start",
            scopes: ["openid"]
        )
        let client = try await HAAPIClient(configuration: configuration, transport: ClosureHAAPITransport { _ in HTTPResponseData(status: 500) })
        var ids: Set<String> = []
        for _ in 0..<200 {
            let session = SignInSession(
                flow: client.makeFlow(),
                dispatcher: CallbackDispatcher(sinks: .fixed([]), logger: .init(label: "t")),
                logger: .init(label: "t")
            )
            let flowID = session.flowID
            #expect(await session.document().document.record.signIn.id == flowID)
            ids.insert(flowID)
        }
        #expect(ids.count == 200)
        #expect(
            ids.allSatisfy {
                $0.count == 22
                    && Data(base64Encoded: $0.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/") + "==")?.count == 16
            }
        )
    }
}
