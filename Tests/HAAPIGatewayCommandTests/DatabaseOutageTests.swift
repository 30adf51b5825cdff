import Foundation
import Testing

@testable import GatewayTestSupport

/// A database that stops answering while the gateway runs (its host hangs): once the gateway knows, every page and
/// `/readyz` answer at once, in words that fit a new visitor and a person in the middle of a sign-in; when it answers
/// again, the sign-in goes on. A whole `serve` process and a PostgreSQL server of the test's own, frozen with SIGSTOP.
@Suite(
    "The database down: pages and readiness answer at once",
    .enabled(if: TestTools.postgresAvailable, "needs PostgreSQL's initdb, postgres, psql and pg_dump (Debian's postgresql)"),
    .startsPrograms()
)
struct DatabaseOutageTests {
    @Test(
        "a database that stops answering: after the first page meets it, pages answer at once with words for a new visitor and for a person mid-sign-in, /readyz too, and the sign-in goes on when it answers again"
    )
    func pagesAnswerAtOnceWhileTheDatabaseIsDown() async throws {
        let server = try await PostgresTestServer.start()
        defer { try? server.freeze(false) }
        do {
            var environment = try PostgresGatewayEnvironment.make(port: server.port)
            environment["HAAPI_GATEWAY_SESSIONS_POSTGRES_URL"] = server.url(database: try await server.createDatabase())
            environment["HAAPI_GATEWAY_SERVER_DRAIN_SECONDS"] = "0"
            let serve = try RunningGateway(["serve", "--port", "0"], environment: environment)
            let base = try await serve.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
            try await TestBrowser.using(base) { person in
                let form = try await person.openPasswordForm()
                var ready = try await person.get("/readyz").status == 200
                for _ in 0..<120 where !ready {
                    try await Task.sleep(for: .milliseconds(250))
                    ready = try await person.get("/readyz").status == 200
                }
                try #require(ready, "ready before the database stops answering")
                try server.freeze(true)
                // Asked before any page meets the silent database (and past the second its last answer is reused), /readyz
                // answers at once all the same, with its check's last answer, ready: the check that meets the silent
                // database ends in the background. Before, it waited for the check's 2 s, then 6 s more for a connection
                // of its own to say why, and answered 503.
                // How long each answer took is the gateway's own time for it (its request log line): a time taken here
                // would also count how long this test process waited to be scheduled on a loaded machine.
                try await Task.sleep(for: .milliseconds(1200))
                let (first, firstTook) = try await serve.timed("GET", "/readyz") { try await person.get("/readyz") }
                #expect(first.status == 200, "the last answer, not a wait for the silent database: \(first.html)")
                #expect(firstTook < 1000, "/readyz took \(firstTook) ms in the gateway")
                // The first request to meet the silent database waits for its operation's limit (5 s).
                _ = try await serve.timed("GET", "/") { try await TestBrowser.using(base) { try await $0.get("/") } }
                // From then on, every page answers at once (milliseconds; under 3 s however loaded the machine). Spaced
                // 2.5 s apart: before, a failure held them back for 2 s, and each request after that waited out the
                // limit again (5 s).
                for _ in 0..<3 {
                    try await Task.sleep(for: .milliseconds(2500))
                    let (newVisitor, took) = try await serve.timed("GET", "/") { try await TestBrowser.using(base) { try await $0.get("/") } }
                    #expect(
                        took < 3000,
                        "\(took) ms in the gateway; its last lines: \(serve.standardError.split(separator: "\n").suffix(8).joined(separator: "\n"))"
                    )
                    #expect(newVisitor.status == 503)
                    #expect(newVisitor.header("Retry-After") == "5")
                    #expect(
                        newVisitor.html.contains("Sign-in is unavailable at the moment: sign-ins cannot be kept just now."),
                        "\(newVisitor.html)"
                    )
                    #expect(!newVisitor.html.contains("continue where you were"), "a new visitor has nothing to continue")
                }
                let (midSignIn, postTook) = try await serve.timed("POST") {
                    try await person.submit(form, ["userName": "demo", "password": "demo"])
                }
                #expect(postTook < 3000, "\(postTook) ms in the gateway")
                #expect(midSignIn.status == 503)
                #expect(midSignIn.html.contains("Nothing is lost: try again in a moment to continue where you were."), "\(midSignIn.html)")
                let (readiness, readinessTook) = try await serve.timed("GET", "/readyz") { try await person.get("/readyz") }
                #expect(readinessTook < 3000, "\(readinessTook) ms in the gateway")
                #expect(readiness.status == 503)
                #expect(readiness.html.contains(#""sessionStore":"not ready ("#), "\(readiness.html)")

                try server.freeze(false)
                ready = false
                let deadline = ContinuousClock.now + .seconds(30)
                while !ready, ContinuousClock.now < deadline {
                    try await Task.sleep(for: .milliseconds(250))
                    ready = try await person.get("/readyz").status == 200
                }
                #expect(ready, "ready again once the database answers")
                let notice = try await person.submit(form, ["userName": "demo", "password": "demo"])
                let done = try await person.submit(try notice.form(button: "Continue"))
                #expect(done.html.contains("You are signed in"), "the sign-in went on from its page: \(done.html)")
            }
            _ = try await serve.stopped(killingAfter: .seconds(30))
            #expect(serve.standardError.contains("the database does not answer; pages say so at once until it does again"))
            #expect(serve.standardError.contains("the database answers again"))
            await server.stop()
        } catch {
            try? server.freeze(false)
            await server.stop()
            throw error
        }
    }
}
