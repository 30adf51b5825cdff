import Foundation
import HAAPI
import HAAPIGateway
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    /// Two gateways of this process sharing a database, as two replicas behind a round-robin load balancer: every
    /// request, redirects included, goes to the other replica than the one before.
    @Suite("Sign-ins shared by replicas through PostgreSQL")
    struct SharedSignIns {
        let key = SessionEncryptionKey.random()

        @Test(
            "demo, otp, poll (its waiting page and the script's status) and consent: each page from the other replica, each sign-in completes and is delivered once"
        )
        func alternatingReplicas() async throws {
            try await SharedReplicas.run(keys: [key]) { replicas in
                for user in TestBrowser.secondStepUsers {
                    try await replicas.browser().closing { browser in
                        let page = try await browser.signIn(
                            asDemoUser: user,
                            code: {
                                try #require(try await DemoSideChannel.outbox(replicas.demo).first { $0["code"] is String }?["code"] as? String)
                            },
                            approve: { try await DemoSideChannel.decideApproval(replicas.demo, approve: true) }
                        )
                        #expect(page.html.contains("You are signed in"), "\(user): \(page.html)")
                        let served = browser.served
                        #expect(Set(served) == Set(replicas.urls), "\(user): both replicas served it")
                        #expect(zip(served, served.dropFirst()).allSatisfy { $0 != $1 }, "\(user): never twice in a row on one replica")
                    }
                }
                #expect(replicas.delivered == 4, "each outcome delivered once, by one replica")
                #expect(
                    try await replicas.database.sql("SELECT count(*) FROM haapi_gateway_sessions WHERE claimed_by IS NOT NULL") == "0",
                    "no hold left"
                )
            }
        }

        @Test(
            "a replica that completed a sign-in and died before saving it: the person's post again, on the other replica, meets a finished flow, and the page says signed in; the sinks got the success alone"
        )
        func completedSignInWhoseSaveWasLost() async throws {
            try await SharedReplicas.run(keys: [key]) { replicas in
                try await TestBrowser.using(replicas.urls[0]) { browser in
                    let form = try await browser.openPasswordForm()
                    let notice = try await browser.submit(form, ["userName": "demo", "password": "demo"])
                    let last = try notice.form(button: "Continue")
                    // What the database holds before the post that completes it: what a replica killed before its save leaves.
                    try await replicas.database.sql("CREATE TABLE saved AS SELECT * FROM haapi_gateway_sessions")
                    let cookies = browser.cookies  // the killed replica's answer, with its cookie, never came
                    #expect(try await browser.submit(last).html.contains("You are signed in"))
                    try await replicas.database.sql(
                        """
                        DELETE FROM haapi_gateway_sessions;
                        INSERT INTO haapi_gateway_sessions SELECT * FROM saved;
                        UPDATE haapi_gateway_sessions SET claimed_by = NULL, claimed_until = NULL
                        """
                    )
                    try await TestBrowser.using(replicas.urls[1]) { other in
                        for (name, value) in cookies { other.setCookie(name, value) }
                        let again = try await other.submit(last)
                        #expect(again.html.contains("You are signed in"), "\(again.html)")
                    }
                }
                #expect(replicas.delivered == 1, "the success, and no error after it")
                #expect(try await replicas.database.sql("SELECT outcome FROM haapi_gateway_sign_in_outcomes") == "success")
            }
        }

        @Test("one form posted twice at once, to two replicas: the upstream gets it once; the other post finds the page changed")
        func concurrentPostsActOnce() async throws {
            try await SharedReplicas.run(keys: [key]) { replicas in
                try await TestBrowser.using(replicas.urls[0]) { first in
                    try await TestBrowser.using(replicas.urls[1]) { second in
                        let selector = try await first.get("/")
                        let login = try await first.submit(try selector.form(button: "Username and password"))
                        let form = try #require(login.forms.first { $0.inputs.contains { $0.type == "password" } })
                        for (name, value) in first.cookies { second.setCookie(name, value) }
                        let before = replicas.proxy.traffic.count
                        // Every upstream answer 400 ms late: the two posts overlap.
                        replicas.proxy.fault = .delay(milliseconds: 400)
                        async let one = first.submit(form, ["userName": "demo", "password": "demo"])
                        async let two = second.submit(form, ["userName": "demo", "password": "demo"])
                        let pages = [try await one, try await two]
                        replicas.proxy.fault = nil
                        let posted = replicas.proxy.traffic.dropFirst(before).filter { $0.hasPrefix("POST ") && $0.contains("password=demo") }
                        #expect(posted.count == 1, "the password went upstream once: \(posted)")
                        for page in pages { #expect(page.html.contains(#"<button type="submit""#) && page.status == 200, "\(page.html)") }
                        #expect(pages.contains { $0.html.contains("This page had changed") }, "the second post is told the page changed")
                    }
                }
            }
        }

        @Test(
            "what a page consumes is kept: a message shown once is not shown again by the other replica; a refused post releases the sign-in at once"
        )
        func checkInAfterEveryRequest() async throws {
            try await SharedReplicas.run(keys: [key]) { replicas in
                try await replicas.browser().closing { browser in
                    let form = try await browser.openPasswordForm()
                    let wrong = try await browser.submit(form, ["userName": "demo", "password": "wrong"])
                    let message = "Incorrect username or password."
                    #expect(wrong.html.contains(message), "\(wrong.html)")
                    let reload = try await browser.get("/")
                    #expect(!reload.html.contains(message), "shown once, on one replica, not again on the other: \(reload.html)")
                    // A post with a wrong CSRF token is refused after the sign-in was checked out for it: it is released when the
                    // refusal is sent, so the next post does not wait for it.
                    let retry = try #require(reload.forms.first { $0.inputs.contains { $0.type == "password" } })
                    var forged = retry
                    forged.fields["_csrf"] = "forged"
                    #expect(try await browser.submit(forged, ["userName": "demo", "password": "demo"]).status == 403)
                    let started = ContinuousClock.now
                    let notice = try await browser.submit(retry, ["userName": "demo", "password": "demo"])
                    #expect(ContinuousClock.now - started < .seconds(3), "no wait for a hold left by the refused post; \(MachineLoad.description)")
                    #expect(try await browser.submit(try notice.form(button: "Continue")).html.contains("You are signed in"))
                }
            }
        }

        @Test("kiosk mode on two replicas: a finished sign-in's row is deleted at once; a page left alone resets by the database's idle time")
        func kioskOnReplicas() async throws {
            try await SharedReplicas.run(
                keys: [key],
                configure: { $0.kiosk = KioskSettings(enabled: true, resetAfterSeconds: 7, idleResetSeconds: 3) }
            ) {
                replicas in
                try await replicas.browser().closing { browser in
                    let done = try await browser.signInAsDemo()
                    #expect(done.html.contains("You are signed in"), "\(done.html)")
                    #expect(browser.cookies.isEmpty, "the session cookie is cleared")
                    #expect(try await replicas.database.sql("SELECT count(*) FROM haapi_gateway_sessions") == "0", "a shared screen keeps nothing")
                    _ = try await browser.openPasswordForm()
                    let cookie = browser.cookies
                    let active = try await browser.get("/kiosk/next")
                    #expect(active.forms.contains { $0.inputs.contains { $0.type == "password" } }, "still the same step")
                    #expect(browser.cookies == cookie)
                    try await Task.sleep(for: .milliseconds(2_500))
                    let reset = try await browser.get("/kiosk/next")
                    #expect(reset.html.contains("Username and password"), "a new sign-in from the start: \(reset.html)")
                    #expect(browser.cookies != cookie)
                }
            }
        }

        @Test("a sign-in stored under a key the replica lacks starts again there with a notice; the row it could not read is removed")
        func unreadableRestarts() async throws {
            try await SharedReplicas.run(keys: [key], secondKeys: [.random()]) { replicas in
                try await TestBrowser.using(replicas.urls[0]) { first in
                    try await TestBrowser.using(replicas.urls[1]) { second in
                        let selector = try await first.get("/")
                        let oldCookie = try #require(first.cookies["haapi-gateway"])
                        // A post to the replica that cannot read it goes to `/`, which starts again.
                        second.setCookie("haapi-gateway", oldCookie)
                        let restarted = try await second.submit(try selector.form(button: "Username and password"))
                        #expect(restarted.html.contains("could not be continued"), "\(restarted.html)")
                        #expect(restarted.html.contains("Username and password"), "a new sign-in's first page: \(restarted.html)")
                        let newCookie = try #require(second.cookies["haapi-gateway"])
                        #expect(newCookie != oldCookie)
                        let rows = try await replicas.database.sql("SELECT count(*) FROM haapi_gateway_sessions")
                        #expect(rows == "1", "the unreadable row is gone, the new one is there")
                        // The new sign-in goes on where it can be read.
                        let done = try await second.signInAsDemoFrom(restarted)
                        #expect(done.html.contains("You are signed in"), "\(done.html)")
                    }
                }
            }
        }

        @Test(
            "the database refusing connections: a 'nothing is lost, try again' page (503) and /readyz 503; back again, the sign-in goes on where it was"
        )
        func databaseDown() async throws {
            try await SharedReplicas.run(keys: [key]) { replicas in
                try await TestBrowser.using(replicas.urls[0]) { browser in
                    let form = try await browser.openPasswordForm()
                    let name = replicas.database.name
                    try await replicas.database.server.psql(
                        """
                        ALTER DATABASE "\(name)" ALLOW_CONNECTIONS false;
                        SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = '\(name)';
                        """,
                        database: "postgres"
                    )
                    let started = ContinuousClock.now
                    let refused = try await browser.submit(form, ["userName": "demo", "password": "demo"])
                    #expect(refused.status == 503, "\(refused.status) \(refused.html)")
                    #expect(refused.html.contains("Nothing is lost") && refused.header("Retry-After") != nil, "\(refused.html)")
                    #expect(ContinuousClock.now - started < .seconds(8), "within the operation's time limit; \(MachineLoad.description)")
                    let again = ContinuousClock.now
                    #expect(try await browser.get("/").status == 503)
                    #expect(ContinuousClock.now - again < .seconds(1), "at once while the database is known to be down; \(MachineLoad.description)")
                    var ready = try await browser.get("/readyz")
                    for _ in 0..<20 where ready.status == 200 {
                        try await Task.sleep(for: .milliseconds(250))
                        ready = try await browser.get("/readyz")
                    }
                    #expect(ready.status == 503, "\(ready.html)")
                    try await replicas.database.server.psql(#"ALTER DATABASE "\#(name)" ALLOW_CONNECTIONS true;"#, database: "postgres")
                    var page = try await browser.get("/")
                    for _ in 0..<40 where page.status != 200 {
                        try await Task.sleep(for: .milliseconds(250))
                        page = try await browser.get("/")
                    }
                    let kept = try #require(
                        page.forms.first { $0.inputs.contains { $0.type == "password" } },
                        "the password form again: \(page.html)"
                    )
                    let notice = try await browser.submit(kept, ["userName": "demo", "password": "demo"])
                    let done = try await browser.submit(try notice.form(button: "Continue"))
                    #expect(done.html.contains("You are signed in"), "\(done.html)")
                }
            }
        }

        @Test(
            "a pg_dump after sign-ins holds none of their secrets: DPoP key, HAAPI token, PKCE verifier, CSRF token, cookie, tokens, a typed password"
        )
        func dumpHoldsNoSecret() async throws {
            try await SharedReplicas.run(keys: [key]) { replicas in
                try await replicas.browser().closing { browser in
                    let form = try await browser.openPasswordForm()
                    let cookie = try #require(browser.cookies["haapi-gateway"])
                    // What the row holds, opened with the key as only the gateway can.
                    let row = PostgresSessionStorage.rowID(for: cookie)
                    let opened = { () async throws -> [UInt8] in
                        let hex = try await replicas.database.sql("SELECT encode(document, 'hex') FROM haapi_gateway_sessions WHERE id = '\(row)'")
                        let sealed = stride(from: 0, to: hex.count, by: 2).compactMap { offset -> UInt8? in
                            let start = hex.index(hex.startIndex, offsetBy: offset)
                            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)
                        }
                        return try SessionCipher(keys: [key])!.open(sealed, table: PostgresSchema.sessionsTable, rowID: row).get()
                    }
                    // A password typed wrong is re-shown to nobody and kept nowhere: not in the document, not in a dump.
                    let password = "password-canary-\(UUID().uuidString)"
                    #expect(try await browser.submitStopping(form, ["userName": "demo", "password": password]).status == 303)
                    #expect(!String(decoding: try await opened(), as: UTF8.self).contains(password), "the stored sign-in holds the typed password")
                    let wrong = try await browser.get("/")
                    #expect(wrong.html.contains("Incorrect username or password."))
                    let early = try await replicas.database.server.dump(database: replicas.database.name)
                    #expect(!early.contains(password) && !early.lowercased().contains(password.utf8.map { String(format: "%02x", $0) }.joined()))
                    let document = try SignInDocument.decode(try await opened())
                    let pemBody = document.flow.dpopPrivateKeyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
                    var secrets = [pemBody, document.flow.codeVerifier, document.record.csrfToken, cookie]
                    secrets += [document.flow.haapiToken?.value].compactMap { $0 }
                    let retry = try #require(wrong.forms.first { $0.inputs.contains { $0.type == "password" } })
                    let notice = try await browser.submit(retry, ["userName": "demo", "password": "demo"])
                    let done = try await browser.submit(try notice.form(button: "Continue"))
                    #expect(done.html.contains("You are signed in"))
                    // Written by the replica that completed the sign-in.
                    let sink = try #require([replicas.sinkPath, replicas.sinkPath + ".second"].first { FileManager.default.fileExists(atPath: $0) })
                    let outcome = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: sink))) as? [String: Any]
                    let token = try #require(outcome?["token"] as? [String: Any], "the outcome's tokens")
                    secrets += ["accessToken", "refreshToken", "idToken"].compactMap { token[$0] as? String }
                    let dump = try await replicas.database.server.dump(database: replicas.database.name)
                    #expect(dump.contains("haapi_gateway_sessions"), "the dump is of these tables")
                    for secret in secrets where secret.count >= 16 {
                        let secretHex = secret.utf8.map { String(format: "%02x", $0) }.joined()
                        #expect(!dump.contains(secret) && !dump.lowercased().contains(secretHex), "the dump holds a secret in the clear")
                    }
                    #expect(secrets.count == 8, "every secret was looked for")
                }
            }
        }
    }
}
