import Foundation
import HAAPI
import Logging
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIHostTools

/// Polling the token endpoint (RFC 8628 §3.4–3.5), on a virtual clock: when each request goes, and how each answer ends
/// or continues the polling.
@Suite("Device polling")
struct DevicePollingTests {
    /// Polls `server` for its standard grant (interval 5 s, or `interval`; expires in `expiresIn` s).
    static func poll(
        _ server: ScriptedAuthorizationServer,
        interval: Int = 5,
        expiresIn: Int = 600,
        timeout: Duration? = nil
    ) async throws -> DevicePollOutcome {
        let device = try await DeviceAuthorizationClient.connect(
            to: URL(string: ScriptedAuthorizationServer.issuer)!,
            credentials: DeviceClientCredentials(clientID: "pi", secret: "s"),
            transport: server.transport,
            logger: .quiet
        )
        let grant = DeviceAuthorizationGrant(
            deviceCode: "secret-device-code",
            userCode: "WDJB-MJHT",
            verificationURI: URL(string: "https://gateway.example/device")!,
            verificationURIComplete: nil,
            expiresIn: .seconds(expiresIn),
            interval: .seconds(interval)
        )
        return await device.poll(grant, timeout: timeout, clock: server.clock)
    }

    static func seconds(_ server: ScriptedAuthorizationServer) -> [Int64] { server.requests(to: "/oauth/token").map(\.second) }

    @Test(
        "authorization_pending keeps polling at the interval; success ends it with the tokens; each request is the device code grant, authenticated"
    )
    func pendingThenSuccess() async throws {
        let server = ScriptedAuthorizationServer(tokenAnswers: [.pending(), .pending(), .tokens()])
        let outcome = try await Self.poll(server)
        guard case .signedIn(let tokens) = outcome else {
            Issue.record("not signed in: \(outcome)")
            return
        }
        #expect(tokens.accessToken == "gateway-access" && tokens.refreshToken == "gateway-refresh" && tokens.scope == "openid profile")
        #expect(Self.seconds(server) == [5, 10, 15], "the first request waits one interval too")
        for request in server.requests(to: "/oauth/token") {
            #expect(request.form == ["grant_type": "urn:ietf:params:oauth:grant-type:device_code", "device_code": "secret-device-code"])
            #expect(ScriptedAuthorizationServer.basicCredentials(request) == "pi:s")
        }
    }

    @Test("slow_down adds 5 s to the interval for the rest of the polling")
    func slowDown() async throws {
        let server = ScriptedAuthorizationServer(tokenAnswers: [.pending(), .slowDown(), .pending(), .slowDown(), .pending(), .tokens()])
        guard case .signedIn = try await Self.poll(server) else {
            Issue.record("not signed in")
            return
        }
        #expect(Self.seconds(server) == [5, 10, 20, 30, 45, 60])
    }

    @Test("a network error or a 5xx is retried with a doubling wait (never below the interval, at most 60 s); an answer resets it")
    func transientFailures() async throws {
        let server = ScriptedAuthorizationServer(
            tokenAnswers: [
                .networkFailure, .raw(503, "busy"), .networkFailure, .networkFailure, .networkFailure, .pending(), .networkFailure, .tokens(),
            ])
        guard case .signedIn = try await Self.poll(server) else {
            Issue.record("not signed in")
            return
        }
        #expect(Self.seconds(server) == [5, 15, 35, 75, 135, 195, 200, 210])
    }

    @Test("temporarily_unavailable (the gateway busy) is retried like a 5xx, not taken for a refusal")
    func temporarilyUnavailable() async throws {
        let busy = ScriptedAuthorizationServer.Answer.json(400, #"{"error":"temporarily_unavailable"}"#)
        let server = ScriptedAuthorizationServer(tokenAnswers: [busy, busy, .pending(), .tokens()])
        guard case .signedIn = try await Self.poll(server) else {
            Issue.record("not signed in")
            return
        }
        #expect(Self.seconds(server) == [5, 15, 35, 40])
    }

    @Test("tokens the gateway hands on bound to DPoP come with their key (dpop_private_key), which goes to the token file")
    func dpopBoundTokens() async throws {
        let key = DPoPKey()
        let pem = key.privateKeyPEM.replacingOccurrences(of: "\n", with: "\\n")
        let server = ScriptedAuthorizationServer(
            tokenAnswers: [
                .json(200, #"{"access_token":"bound","token_type":"DPoP","expires_in":300,"refresh_token":"sealed","dpop_private_key":"\#(pem)"}"#)
            ])
        guard case .signedIn(let tokens) = try await Self.poll(server) else {
            Issue.record("not signed in")
            return
        }
        #expect(tokens.isDPoPBound)
        #expect(tokens.dpopKey?.publicJWK == key.publicJWK)
        let path = try DeviceLoginTests.tokenPath()
        #expect(LoginReport.conclude(.signedIn(tokens), tokenPath: path, json: false).exitStatus == 0)
        #expect(try TokenFile.read(path).tokens.dpopKey?.publicJWK == key.publicJWK, "the key is kept with the tokens, as a local login keeps it")

        let broken = ScriptedAuthorizationServer(tokenAnswers: [
            .json(200, #"{"access_token":"bound","token_type":"DPoP","dpop_private_key":"not a key"}"#)
        ])
        guard case .failed(let error) = try await Self.poll(broken) else {
            Issue.record("an unreadable key is not a failure")
            return
        }
        #expect(error.code == .malformedResponse)
    }

    @Test("never two requests closer than the interval, whatever the answers")
    func neverFasterThanTheInterval() async throws {
        let answers: [ScriptedAuthorizationServer.Answer] = [
            .pending(), .networkFailure, .pending(), .slowDown(), .raw(502, ""), .pending(), .slowDown(), .pending(), .tokens(),
        ]
        let server = ScriptedAuthorizationServer(tokenAnswers: answers)
        guard case .signedIn = try await Self.poll(server, interval: 2) else {
            Issue.record("not signed in")
            return
        }
        var interval: Int64 = 2
        var previous: Int64 = 0
        for (request, answer) in zip(server.requests(to: "/oauth/token"), answers) {
            #expect(request.second - previous >= interval, "request at \(request.second) s after one at \(previous) s")
            previous = request.second
            if case .json(_, let body) = answer, body.contains("slow_down") { interval += 5 }
        }
        #expect(server.requests(to: "/oauth/token").count == answers.count)
    }

    @Test("access_denied ends as denied, expired_token as expired, another OAuth error as refused, an unreadable answer as failed")
    func endings() async throws {
        let denied = try await Self.poll(ScriptedAuthorizationServer(tokenAnswers: [.pending(), .error("access_denied")]))
        guard case .denied(let error) = denied else {
            Issue.record("not denied: \(denied)")
            return
        }
        #expect(error.error == "access_denied")
        #expect(try await Self.poll(ScriptedAuthorizationServer(tokenAnswers: [.error("expired_token")])) == .expired)
        guard case .refused(let refused) = try await Self.poll(ScriptedAuthorizationServer(tokenAnswers: [.error("invalid_grant")])) else {
            Issue.record("invalid_grant is not a refusal")
            return
        }
        #expect(refused.error == "invalid_grant")
        guard case .failed(let failure) = try await Self.poll(ScriptedAuthorizationServer(tokenAnswers: [.raw(400, "no")])) else {
            Issue.record("a 400 without an OAuth error is not a failure")
            return
        }
        #expect(failure.code == .upstreamStatus)
    }

    @Test("polling stops when the code expires (expires_in) or the device's timeout passes, whichever is first")
    func deadlines() async throws {
        let expiring = ScriptedAuthorizationServer(tokenAnswers: [.pending()])
        #expect(try await Self.poll(expiring, expiresIn: 12) == .expired)
        #expect(Self.seconds(expiring) == [5, 10])
        #expect(expiring.clock.seconds == 12, "it waits for the whole lifetime, no longer")

        let impatient = ScriptedAuthorizationServer(tokenAnswers: [.pending()])
        #expect(try await Self.poll(impatient, expiresIn: 600, timeout: .seconds(7)) == .timedOut)
        #expect(Self.seconds(impatient) == [5])
        #expect(impatient.clock.seconds == 7)

        let retrying = ScriptedAuthorizationServer(tokenAnswers: [.networkFailure])
        #expect(try await Self.poll(retrying, expiresIn: 30) == .expired)
        #expect(Self.seconds(retrying) == [5, 15], "the backoff does not run past the deadline")
    }
}
