import Foundation
import HAAPI
import Logging
import Synchronization
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIHostTools

/// ``RefreshLoop``, `keep` as a library: refreshes when due, again and again, backs off on failures, runs the hook, and
/// stops on what cannot be retried (against a scripted token endpoint, on a clock whose sleeps end at once).
@Suite("Refresh loop")
struct RefreshLoopTests {
    /// The scripted token endpoint's answers in order (nil: the connection fails), and the virtual second of each call.
    final class Script: Sendable {
        private let state: Mutex<(answers: [(Int, String)?], calls: [Int64])>
        let clock = TestClock()
        init(_ answers: [(Int, String)?]) { state = Mutex((answers, [])) }
        func next() -> (Int, String)? {
            state.withLock { state in
                state.calls.append(clock.seconds)
                return state.answers.isEmpty ? (500, "{}") : state.answers.removeFirst()
            }
        }
        var calls: [Int64] { state.withLock { $0.calls } }
    }

    static func loop(_ script: Script, once: Bool = false, hook: RefreshHook? = nil) async throws -> (RefreshLoop<TestClock>, HAAPIClient, String) {
        let path = try TokenKeeperUnitTests.tokenFile()
        let client = try await TokenKeeperUnitTests.client { _ in
            guard let (status, body) = script.next() else { throw HAAPIError(.transport, "connection refused") }
            return HTTPResponseData(status: status, headers: [("Content-Type", "application/json")], body: Data(body.utf8))
        }
        let start = Date()
        let clock = script.clock
        let loop = RefreshLoop(
            keeper: TokenKeeper(path: path),
            manager: client.tokenManager,
            once: once,
            hook: hook,
            clock: clock,
            now: { start.addingTimeInterval(Double(clock.seconds)) },
            logger: Logger(label: "refresh-loop-test")
        )
        return (loop, client, path)
    }

    static func fresh(_ access: String, expiresIn: Int) -> (Int, String) {
        (200, #"{"access_token":"\#(access)","token_type":"Bearer","expires_in":\#(expiresIn),"refresh_token":"r-\#(access)"}"#)
    }

    @Test("refreshes three quarters into each lifetime, again and again, until the refresh token is refused; then the file is gone")
    func refreshesWhenDue() async throws {
        let script = Script([Self.fresh("a1", expiresIn: 200), Self.fresh("a2", expiresIn: 80), (400, #"{"error":"invalid_grant"}"#)])
        let (loop, client, path) = try await Self.loop(script)
        let lines = Mutex<[String]>([])
        let ending = await loop.run { line in lines.withLock { $0.append(line) } }
        guard case .signInAgain = ending else {
            Issue.record("ended \(ending)")
            return
        }
        // 400 s tokens: due at 300 s; then 200 s: 150 s later; then 80 s: 60 s later (each within a second of the file's age).
        let calls = script.calls
        #expect(calls.count == 3)
        #expect((299...301).contains(calls[0]) && (449...451).contains(calls[1]) && (509...511).contains(calls[2]), "\(calls)")
        #expect(lines.withLock { $0.count } == 2)
        #expect(!FileManager.default.fileExists(atPath: path))
        try await client.shutdown()
    }

    @Test("a failing call is retried after 1 s, doubling; the next refresh resets the wait")
    func backsOff() async throws {
        let script = Script([nil, nil, nil, Self.fresh("a1", expiresIn: 400), (400, #"{"error":"unauthorized_client"}"#)])
        let (loop, client, _) = try await Self.loop(script)
        let ending = await loop.run { _ in }
        guard case .refused(let error) = ending else {
            Issue.record("ended \(ending)")
            return
        }
        #expect(error.error == "unauthorized_client")
        let calls = script.calls
        #expect(calls.count == 5)
        #expect(calls[1] - calls[0] == 1 && calls[2] - calls[1] == 2 && calls[3] - calls[2] == 4, "\(calls)")
        try await client.shutdown()
    }

    @Test("--once refreshes at once and runs the hook with HAAPI_GATEWAY_TOKEN_FILE; a failure then ends it")
    func onceWithHook() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hook-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let hook = directory.appendingPathComponent("hook.sh")
        let seen = directory.appendingPathComponent("seen")
        try "#!/bin/sh\necho \"$HAAPI_GATEWAY_TOKEN_FILE\" > '\(seen.path)'\n".write(to: hook, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: hook.path)
        let script = Script([Self.fresh("a1", expiresIn: 400)])
        let (loop, client, path) = try await Self.loop(script, once: true, hook: RefreshHook(program: hook.path))
        guard case .stopped = await loop.run(announce: { _ in }) else {
            Issue.record("did not stop")
            return
        }
        #expect(script.calls == [0], "at once, not when due")
        #expect(try String(contentsOf: seen, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines) == path)
        #expect(try TokenFile.read(path).tokens.accessToken == "a1")
        try await client.shutdown()

        let (failing, failingClient, _) = try await Self.loop(Script([nil]), once: true)
        guard case .failed = await failing.run(announce: { _ in }) else {
            Issue.record("a failed --once did not fail")
            return
        }
        try await failingClient.shutdown()
    }
}
