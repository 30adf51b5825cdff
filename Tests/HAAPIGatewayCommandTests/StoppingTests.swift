import Foundation
import HAAPIDemoServer
import HAAPIGateway
import Testing

@testable import GatewayTestSupport

/// SIGTERM always ends `serve` within `server.drainSeconds` + `server.stopSeconds`, whatever the database, the upstream
/// and the sinks do: refused, never answering, or stalled in the middle of an answer. Whole processes, as a supervisor
/// stops them.
@Suite("Stopping always ends", .startsPrograms())
struct StoppingTests {
    /// A database that never answered: refused, silent, or stalled mid-answer. Before 2026-11-26 the preparation of the
    /// tables kept trying through the stop, and the process ran until SIGKILL.
    @Test(
        "a database that never answered does not hold the stop: SIGTERM ends the process after the drain, exit 0",
        arguments: ["refused", "silent", "stalled mid-answer"]
    )
    func aDatabaseThatNeverAnsweredDoesNotHoldTheStop(behaviour: String) async throws {
        let reserved = try ReservedPort()
        let peer: SilentPeer? =
            switch behaviour {
            case "silent": try SilentPeer(.silent)
            case "stalled mid-answer": try SilentPeer(SilentPeer.postgresMidAnswer)
            default: nil
            }
        defer { peer?.stop() }
        let port = peer?.port ?? reserved.port
        let serve = try RunningGateway(["serve", "--port", "0"], environment: try PostgresGatewayEnvironment.make(port: port))
        _ = try await serve.waitForOutput(#"(HAAPI gateway listening)"#, inStandardError: true)
        // The database has been tried at least once (a silent one takes its connection limit to say so).
        _ = try await serve.waitForOutput(#"(database unreachable; trying again)"#, inStandardError: true)
        let (status, took) = try await serve.stopped(killingAfter: .seconds(45))
        #expect(status == 0, "\(serve.standardError)")
        // drain (1 s) + stop (at most 10 s) and a loaded machine's slack; it never ended before.
        #expect(took < .seconds(25), "stopped after \(took)")
        #expect(
            !serve.standardError.contains("could not be released"),
            "a replica that never reached the database holds no claim, and does not wait to release one"
        )
    }

    /// A request waiting on an upstream that never answers, with a long upstream time limit, is cut off at the stop's
    /// deadline: the process exits 70 and names what had not ended.
    @Test("a page waiting on a silent upstream is cut off at the stop's deadline: exit 70, naming the requests under way")
    func aSilentUpstreamIsCutOffAtTheStopDeadline() async throws {
        let demo = try RunningGateway(["demo-server", "--port", "0", "--log-level", "error"])
        let issuer = try await demo.waitForOutput(#"Demo HAAPI server: issuer (http://127\.0\.0\.1:\d+/oauth/v2/oauth-anonymous)"#)
        let serve = try RunningGateway(
            [
                "serve", "--port", "0", "--upstream", issuer, "--client-id", DemoServer.clientID, "--client-secret", DemoServer.clientSecret,
            ],
            environment: [
                "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "3", "HAAPI_GATEWAY_SERVER_STOP_SECONDS": "5",
                "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "120",
            ]
        )
        let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        // The upstream stops answering (its process is stopped: connections are accepted by the kernel, never answered).
        demo.signal(SIGSTOP)
        defer {
            demo.signal(SIGCONT)
            demo.signal(SIGTERM)
        }
        let waiting = Task { try? await TestBrowser.using(base) { try await $0.get("/") } }
        try await Task.sleep(for: .milliseconds(500))
        let (status, took) = try await serve.stopped(killingAfter: .seconds(60))
        waiting.cancel()
        #expect(status == StopDeadline.cutShortStatus, "\(serve.standardError)")
        // The signal starts the deadline with the drain still ahead (`StopSignalWatch`): drain 3 s + stop 5 s, not the
        // stop's 5 s from the signal, nor the upstream's 120 s.
        #expect(took >= .seconds(8), "drain 3 s + stop 5 s from the signal: \(took)")
        #expect(took < .seconds(25), "drain 3 s + stop 5 s, not the upstream's 120 s: \(took)")
        #expect(serve.standardError.contains("the stop took longer than server.stopSeconds after the drain"), "\(serve.standardError)")
        #expect(serve.standardError.contains("part=requests under way"), "\(serve.standardError)")
    }

    /// `login` stops as `serve` does: a person's request waiting on an upstream that never answers does not hold the
    /// command past `server.stopSeconds` after SIGTERM (its deadline starts from the signal, on a thread of its own, not
    /// from a task). Before, it waited for the upstream's time limit, and a `login` whose tasks no longer ran ignored
    /// SIGTERM altogether (a fresh-clone run of the suite, 2026-11-27).
    @Test("a login whose person waits on a silent upstream: SIGTERM ends it within server.stopSeconds, exit 70, naming the requests under way")
    func aLoginWaitingOnASilentUpstreamEndsAtTheStopDeadline() async throws {
        let demo = try RunningGateway(["demo-server", "--port", "0", "--log-level", "error"])
        let issuer = try await demo.waitForOutput(#"Demo HAAPI server: issuer (http://127\.0\.0\.1:\d+/oauth/v2/oauth-anonymous)"#)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("login-stop-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let login = try RunningGateway(
            [
                "login", "--port", "0", "--token-file", directory.appendingPathComponent("tokens.json").path, "--timeout-seconds", "300",
                "--upstream", issuer, "--client-id", DemoServer.clientID, "--client-secret", DemoServer.clientSecret,
            ],
            environment: ["HAAPI_GATEWAY_SERVER_STOP_SECONDS": "5", "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "120"]
        )
        let url = try #require(URL(string: try await login.waitForOutput(#"(http://127\.0\.0\.1:\d+/pair/[A-Za-z0-9_-]+)"#)))
        let confirm = try await TestBrowser.using("http://127.0.0.1:\(url.port!)") { try await $0.get(url.path) }
        // The upstream stops answering; confirming the code starts the sign-in, whose authorize request waits on it.
        demo.signal(SIGSTOP)
        defer {
            demo.signal(SIGCONT)
            demo.signal(SIGTERM)
        }
        let waiting = Task {
            try? await TestBrowser.using("http://127.0.0.1:\(url.port!)") {
                try await $0.submit(try confirm.form(button: "It matches, continue"))
            }
        }
        try await Task.sleep(for: .milliseconds(500))
        let (status, took) = try await login.stopped(killingAfter: .seconds(60))
        waiting.cancel()
        #expect(status == StopDeadline.cutShortStatus, "\(login.standardError)")
        #expect(took < .seconds(20), "stop 5 s, not the upstream's 120 s: \(took)")
        #expect(login.standardError.contains("part=requests under way"), "\(login.standardError)")
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("tokens.json").path))
    }

    /// A person who signed in keeps the tokens even when the stop after the sign-in runs past `server.stopSeconds`: the
    /// token file is written as soon as the outcome is there, before the stop and its deadline start. Before, it was
    /// written after the stop, and a stop cut short (exit 70) left the person signed in with no tokens on the host. The
    /// stop is held by a post whose body never comes (its head sent, eight of its hundred bytes).
    @Test("a login whose stop runs past server.stopSeconds after the sign-in still writes the token file, then exits 70")
    func aLoginCutShortAfterTheSignInKeepsItsTokens() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("login-kept-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenFile = directory.appendingPathComponent("tokens.json")
        let login = try RunningGateway(
            ["login", "--port", "0", "--token-file", tokenFile.path, "--timeout-seconds", "300"],
            environment: [
                "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0", "HAAPI_GATEWAY_SERVER_STOP_SECONDS": "5",
                "HAAPI_GATEWAY_SERVER_REQUEST_TIMEOUT_SECONDS": "120", "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60",
            ]
        )
        let url = try #require(URL(string: try await login.waitForOutput(#"(http://127\.0\.0\.1:\d+/pair/[A-Za-z0-9_-]+)"#)))
        let held = try RawConnection(to: url.port!)
        defer { held.close() }
        // A post the gateway reads the form of before it does anything (a session cookie makes it read it).
        held.send(
            "POST /cancel HTTP/1.1\r\nHost: 127.0.0.1:\(url.port!)\r\nCookie: haapi-gateway=held\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n_csrf=ab"
        )
        let done = try await login.pairAndSignIn()
        #expect(done.html.contains("You are signed in"), "\(done.html)")
        let status = try await login.waitForExit(timeout: .seconds(60))
        #expect(status == StopDeadline.cutShortStatus, "the held request outlasts the stop: \(login.standardError)")
        #expect(login.standardError.contains("part=requests under way"), "\(login.standardError)")
        let document = try JSONSerialization.jsonObject(with: Data(contentsOf: tokenFile)) as? [String: Any]
        #expect(document?["outcome"] as? String == "success", "the tokens were written before the stop")
        #expect(login.standardOutput.contains("Signed in as demo"), "and the summary said: \(login.standardOutput)")
    }

    /// A webhook that never answers: the person's last page says the hand-over goes on after `callbacks.pageWaitSeconds`,
    /// not after the webhook's own time limit (each attempt's 5 s, which every final page waited before).
    /// The last page waits for the sinks `callbacks.pageWaitSeconds` (here 1 s), then says the hand-over goes on. The
    /// sink never ends its attempt, which `callbacks.handOverSeconds` (here 300 s) bounds: the page's bound is tested with
    /// room for a loaded machine (30 s), far from the attempt's. (A webhook's own limit, 5 s, left 4 s of room only.)
    @Test("a sink that never answers: the last page says the hand-over goes on after callbacks.pageWaitSeconds, long before the attempt ends")
    func aSinkThatNeverAnswersDoesNotHoldTheLastPage() async throws {
        let directory = try Repository.temporaryDirectory()
        let script = directory.appendingPathComponent("never-answers.sh")
        try "#!/bin/sh\ncat > /dev/null\nexec sleep 600\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        let serve = try RunningGateway(
            ["serve", "--port", "0"],
            environment: [
                "HAAPI_GATEWAY_CALLBACKS_SINKS": "exec:\(script.path)", "HAAPI_GATEWAY_CALLBACKS_PAGE_WAIT_SECONDS": "1",
                "HAAPI_GATEWAY_CALLBACKS_HAND_OVER_SECONDS": "300", "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0",
                "HAAPI_GATEWAY_SERVER_STOP_SECONDS": "5", "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60",
            ]
        )
        let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        try await TestBrowser.using(base) { browser in
            let notice = try await browser.submit(try await browser.openPasswordForm(), ["userName": "demo", "password": "demo"])
            let started = ContinuousClock.now
            let done = try await browser.submit(try notice.form(button: "Continue"))
            #expect(done.html.contains("taking longer than usual"), "the page says the hand-over goes on")
            // pageWaitSeconds 1 s and the code exchange; 30 s leaves a loaded machine room, and is a tenth of the 300 s the
            // attempt may take.
            #expect(ContinuousClock.now - started < .seconds(30), "\(ContinuousClock.now - started)")
        }
        _ = try await serve.stopped(killingAfter: .seconds(60))
    }

    /// A sink that never ends (a program that sleeps) with a long `callbacks.handOverSeconds`: the stop gives the last
    /// attempt what its budget leaves, ends it, keeps the delivery in the spool and says so, and exits 0 within
    /// `server.drainSeconds` + `server.stopSeconds`.
    @Test("a sink that never ends: the stop ends its attempt within server.stopSeconds, keeps the delivery in the spool and says so, exit 0")
    func aSinkThatNeverEndsDoesNotHoldTheStop() async throws {
        let directory = try Repository.temporaryDirectory()
        let script = directory.appendingPathComponent("never-ends.sh")
        try "#!/bin/sh\ncat > /dev/null\nexec sleep 600\n".write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: script.path)
        let spool = directory.appendingPathComponent("callbacks.spool")
        let serve = try RunningGateway(
            ["serve", "--port", "0"],
            environment: [
                "HAAPI_GATEWAY_CALLBACKS_SINKS": "exec:\(script.path)", "HAAPI_GATEWAY_CALLBACKS_SPOOL_FILE": spool.path,
                "HAAPI_GATEWAY_CALLBACKS_PAGE_WAIT_SECONDS": "1", "HAAPI_GATEWAY_CALLBACKS_HAND_OVER_SECONDS": "300",
                "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0", "HAAPI_GATEWAY_SERVER_STOP_SECONDS": "12",
                "HAAPI_GATEWAY_UPSTREAM_TIMEOUT_SECONDS": "60",
            ]
        )
        let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        try await TestBrowser.using(base) { browser in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("taking longer than usual"))
        }
        let (status, took) = try await serve.stopped(killingAfter: .seconds(60))
        #expect(status == 0, "ended within its budget, not cut short: \(serve.standardError)")
        #expect(took < .seconds(20), "\(took)")
        #expect(serve.standardError.contains("callback deliveries spooled for the next start"), "\(serve.standardError)")
        #expect(FileManager.default.fileExists(atPath: spool.path))
    }

    /// Tables newer than this gateway knows are refused before the gateway listens: one line, exit 78, no drain.
    @Test(
        "tables of a newer schema are refused before the gateway listens: one line naming both versions, exit 78",
        .enabled(if: TestTools.postgresAvailable, "needs PostgreSQL's initdb, postgres, psql and pg_dump (Debian's postgresql)")
    )
    func aNewerSchemaIsRefusedBeforeListening() async throws {
        let server = try await PostgresTestServer.start()
        do {
            let name = try await server.createDatabase()
            try await server.psql(
                "CREATE TABLE haapi_gateway_schema (version integer NOT NULL, installed_at timestamptz NOT NULL DEFAULT now()); INSERT INTO haapi_gateway_schema (version) VALUES (99)",
                database: name
            )
            var environment = try PostgresGatewayEnvironment.make(port: server.port)
            environment["HAAPI_GATEWAY_SESSIONS_POSTGRES_URL"] = server.url(database: name)
            let result = try await runGateway(["serve", "--port", "0"], environment: environment, directory: Repository.root)
            await server.stop()
            #expect(result.status == StartupFailure.configurationStatus, "\(result.standardError)")
            #expect(!result.standardError.contains("listening"), "refused before listening: \(result.standardError)")
            #expect(!result.standardError.contains("draining"))
            #expect(!result.standardError.contains("CancellationError"))
            #expect(
                result.standardError.split(separator: "\n").last?.hasPrefix(
                    "haapi-gateway: the session database's tables are at schema version 99, newer than this gateway's"
                ) == true,
                "\(result.standardError)"
            )
        } catch {
            await server.stop()
            throw error
        }
    }
}
