import Foundation
import HAAPI
import Logging
import Synchronization

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIHostTools

/// A central gateway's authorization server, scripted: its metadata (RFC 8414), one device authorization answer
/// (RFC 8628 §3.2), a queue of token endpoint answers and the revocation endpoint's answer. It records every request
/// with the virtual time it arrived at.
final class ScriptedAuthorizationServer: Sendable {
    /// One request as it arrived.
    struct Request: Sendable {
        let method: String
        let path: String
        let headers: [(name: String, value: String)]
        let form: [String: String]
        /// The virtual time, in seconds, when it arrived.
        let second: Int64

        func header(_ name: String) -> String? { headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value }
    }

    /// What an endpoint answers.
    enum Answer: Sendable {
        case json(Int, String)
        case networkFailure
        case raw(Int, String)

        static func pending() -> Answer { .json(400, #"{"error":"authorization_pending"}"#) }
        static func slowDown() -> Answer { .json(400, #"{"error":"slow_down"}"#) }
        static func error(_ code: String) -> Answer { .json(400, #"{"error":"\#(code)","error_description":"scripted"}"#) }
        static func tokens(access: String = "gateway-access", refresh: String = "gateway-refresh") -> Answer {
            .json(
                200,
                #"{"access_token":"\#(access)","token_type":"Bearer","expires_in":300,"refresh_token":"\#(refresh)","id_token":"\#(ScriptedAuthorizationServer.idToken)","scope":"openid profile"}"#
            )
        }
    }

    static let issuer = "https://gateway.example"
    /// An unsigned ID token whose subject is `alice`.
    static let idToken = "eyJhbGciOiJub25lIn0." + Data(#"{"sub":"alice"}"#.utf8).base64EncodedString().replacingOccurrences(of: "=", with: "") + ".x"
    /// Metadata with the lead's paths; the tests that check the paths come from here use others.
    static let standardMetadata = """
        {"issuer":"https://gateway.example","device_authorization_endpoint":"https://gateway.example/oauth/device_authorization",
        "token_endpoint":"https://gateway.example/oauth/token","revocation_endpoint":"https://gateway.example/oauth/revoke",
        "grant_types_supported":["urn:ietf:params:oauth:grant-type:device_code","refresh_token"],
        "token_endpoint_auth_methods_supported":["client_secret_basic","client_secret_post","none"]}
        """
    static let standardGrant = """
        {"device_code":"secret-device-code","user_code":"WDJB-MJHT","verification_uri":"https://gateway.example/device",
        "verification_uri_complete":"https://gateway.example/device?user_code=WDJB-MJHT","expires_in":600,"interval":5}
        """

    private struct State {
        var metadata: Answer
        var deviceAuthorization: Answer
        var tokenAnswers: [Answer]
        var revocationAnswers: [Answer]
        var requests: [Request] = []
    }

    let clock: TestClock
    private let state: Mutex<State>

    /// - Parameters:
    ///   - metadata: The metadata document.
    ///   - deviceAuthorization: The device authorization endpoint's answer.
    ///   - tokenAnswers: The token endpoint's answers, in order (the last one repeats).
    ///   - revocationAnswers: The revocation endpoint's answers, in order (the last one repeats).
    ///   - clock: The clock the requests are stamped with.
    init(
        metadata: String = standardMetadata,
        deviceAuthorization: Answer = .json(200, standardGrant),
        tokenAnswers: [Answer] = [.pending()],
        revocationAnswers: [Answer] = [.json(200, "")],
        clock: TestClock = TestClock()
    ) {
        self.clock = clock
        state = Mutex(
            State(
                metadata: .json(200, metadata),
                deviceAuthorization: deviceAuthorization,
                tokenAnswers: tokenAnswers,
                revocationAnswers: revocationAnswers
            )
        )
    }

    /// Every request so far.
    var requests: [Request] { state.withLock { $0.requests } }
    /// The requests to paths ending in `suffix`.
    func requests(to suffix: String) -> [Request] { requests.filter { $0.path.hasSuffix(suffix) } }

    /// The transport that reaches this server.
    var transport: ClosureHAAPITransport {
        ClosureHAAPITransport { request in try self.answer(request) }
    }

    private func answer(_ request: HTTPRequestData) throws -> HTTPResponseData {
        let recorded = Request(
            method: request.method,
            path: request.url.path,
            headers: request.headers,
            form: Self.form(request.body),
            second: clock.seconds
        )
        let answer: Answer = state.withLock { state in
            state.requests.append(recorded)
            switch recorded.path {
            case "/.well-known/oauth-authorization-server": return state.metadata
            case let path where path.hasSuffix("device_authorization") || path.hasSuffix("/device"): return state.deviceAuthorization
            case let path where path.hasSuffix("token"):
                return state.tokenAnswers.count > 1 ? state.tokenAnswers.removeFirst() : state.tokenAnswers[0]
            case let path where path.hasSuffix("revoke"):
                return state.revocationAnswers.count > 1 ? state.revocationAnswers.removeFirst() : state.revocationAnswers[0]
            default: return .raw(404, "not found")
            }
        }
        switch answer {
        case .json(let status, let body):
            return HTTPResponseData(status: status, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
        case .raw(let status, let body): return HTTPResponseData(status: status, headers: [("Content-Type", "text/plain")], body: Data(body.utf8))
        case .networkFailure: throw HAAPIError(.connectionRefused, "scripted: nothing listens")
        }
    }

    /// The parameters of a form body.
    static func form(_ body: Data?) -> [String: String] {
        guard let body, !body.isEmpty else { return [:] }
        var components = URLComponents()
        components.percentEncodedQuery = String(decoding: body, as: UTF8.self).replacingOccurrences(of: "+", with: "%20")
        return Dictionary((components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
    }

    /// The HTTP Basic credentials of a request, decoded (`id:secret`).
    static func basicCredentials(_ request: Request) -> String? {
        guard let value = request.header("Authorization"), value.hasPrefix("Basic "), let data = Data(base64Encoded: String(value.dropFirst(6)))
        else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}

extension Logger {
    /// A logger that keeps the polling retries' warnings out of the test output.
    static var quiet: Logger {
        var logger = Logger(label: "device-client-test")
        logger.logLevel = .critical
        return logger
    }
}
