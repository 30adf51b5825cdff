import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIGatewayPostgres

extension PostgresStorageTests {
    @Suite("Callback outbox in PostgreSQL")
    struct Outbox {
        let key = SessionEncryptionKey.random()
        let sink = "https://hooks.example.com/t"

        private func delivery(_ index: Int, sink: String? = nil) -> OutboxDelivery {
            OutboxDelivery(id: "delivery-\(index)", sink: sink ?? self.sink, outcome: "success", document: Array(#"{"n":\#(index)}"#.utf8))
        }

        @Test("an enqueued delivery is claimed once while its lease runs, with its document opened; a delivered one leaves")
        func claimAndDeliver() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withDatabase(keys: [key]) { handle in
                let outbox = PostgresOutbox(database: handle, owner: "replica-a")
                try await outbox.enqueue((1...3).map { delivery($0) }, claimingFor: nil)
                try await outbox.enqueue([delivery(1)], claimingFor: nil)  // the same id and sink again: left as it is
                let claims = try await outbox.claimDue(sinks: [sink], limit: 10, lease: .seconds(60))
                #expect(claims.count == 3)
                #expect(claims.allSatisfy { $0.attempts == 1 })
                #expect(
                    Set(claims.compactMap { try? $0.document.get() }.map { String(decoding: $0, as: UTF8.self) }) == [
                        #"{"n":1}"#, #"{"n":2}"#, #"{"n":3}"#,
                    ]
                )
                #expect(try await outbox.claimDue(sinks: [sink], limit: 10, lease: .seconds(60)).isEmpty, "claimed deliveries are not claimed again")
                #expect(try await outbox.markDelivered(id: "delivery-2", sink: sink))
                #expect(try await !outbox.markDelivered(id: "delivery-2", sink: sink))
                #expect(try await outbox.pendingCount() == 2)
                // A delivery enqueued claimed (its first attempt is under way here) is not claimable by anyone meanwhile.
                try await outbox.enqueue([delivery(9)], claimingFor: .seconds(30))
                let other = PostgresOutbox(database: handle, owner: "replica-b")
                #expect(try await other.claimDue(sinks: [sink], limit: 10, lease: .seconds(60)).isEmpty)
            }
        }

        @Test(
            "a sign-in has one outcome: noted with its deliveries; a later error or cancelled of the same sign-in, on another replica, is not added and names the first; a later success is added all the same; deliveries of no sign-in are not noted"
        )
        func oneOutcomePerSignIn() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withDatabase(keys: [key]) { a in
                try await database.withDatabase(keys: [key]) { b in
                    let (first, second) = (PostgresOutbox(database: a, owner: "replica-a"), PostgresOutbox(database: b, owner: "replica-b"))
                    func outcome(_ id: String, _ outcome: String) -> [OutboxDelivery] {
                        [sink, "exec:/usr/local/bin/hook"].map { OutboxDelivery(id: id, sink: $0, outcome: outcome, document: Array(outcome.utf8)) }
                    }
                    let signIn = "sign-in-1"
                    let success = SignInOutcomeNote(signIn: signIn, outcome: "success")
                    #expect(try await first.enqueue(outcome("s1", "success"), claimingFor: .seconds(60), ending: success) == nil)
                    #expect(try await first.enqueue(outcome("s1", "success"), claimingFor: .seconds(60), ending: success) == nil, "its own again")
                    let error = SignInOutcomeNote(signIn: signIn, outcome: "error")
                    #expect(try await second.enqueue(outcome("e1", "error"), claimingFor: .seconds(60), ending: error) == "success")
                    let cancelled = SignInOutcomeNote(signIn: signIn, outcome: "cancelled")
                    #expect(try await second.enqueue(outcome("c1", "cancelled"), claimingFor: nil, ending: cancelled) == "success")
                    #expect(try await database.sql("SELECT string_agg(DISTINCT delivery_id, ',') FROM haapi_gateway_outbox") == "s1")
                    #expect(try await second.enqueue(outcome("s2", "success"), claimingFor: nil, ending: success) == "success", "added all the same")
                    #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_outbox WHERE delivery_id = 's2'") == "2")

                    // The other way round: an error first, then a success, which is added (no token dropped).
                    #expect(
                        try await first.enqueue(outcome("e2", "error"), claimingFor: nil, ending: .init(signIn: "sign-in-2", outcome: "error")) == nil
                    )
                    #expect(
                        try await second.enqueue(outcome("s3", "success"), claimingFor: nil, ending: .init(signIn: "sign-in-2", outcome: "success"))
                            == "error"
                    )
                    #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_outbox WHERE delivery_id IN ('e2', 's3')") == "4")

                    #expect(try await first.enqueue(outcome("x1", "error"), claimingFor: nil) == nil)
                    #expect(try await second.enqueue(outcome("x2", "error"), claimingFor: nil) == nil)
                    #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_sign_in_outcomes") == "2")
                    database.clock.advance(.seconds(86_401))
                    try await PostgresSessionStorage(database: a).sweepBookkeeping()
                    #expect(try await database.sql("SELECT count(*) FROM haapi_gateway_sign_in_outcomes") == "0", "kept a day")
                }
            }
        }

        @Test("two replicas claiming at once never claim the same delivery (60 deliveries, batches of 7)")
        func twoClaimers() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withDatabase(keys: [key]) { handle in
                try await PostgresOutbox(database: handle).enqueue((1...60).map { delivery($0) }, claimingFor: nil)
                let replicas = [PostgresOutbox(database: handle, owner: "replica-a"), PostgresOutbox(database: handle, owner: "replica-b")]
                let claimed = try await withThrowingTaskGroup(of: [String].self) { group in
                    for replica in replicas {
                        group.addTask {
                            var mine: [String] = []
                            // Bounded: were claims not exclusive, claiming would never run dry.
                            for _ in 0..<30 {
                                let batch = try await replica.claimDue(sinks: [sink], limit: 7, lease: .seconds(60))
                                if batch.isEmpty { break }
                                mine += batch.map(\.id)
                            }
                            return mine
                        }
                    }
                    var all: [[String]] = []
                    for try await ids in group { all.append(ids) }
                    return all
                }
                let everyClaim = claimed.flatMap { $0 }
                #expect(everyClaim.count == 60, "claimed \(everyClaim.count) times in all")
                #expect(Set(everyClaim).count == 60, "a delivery was claimed twice")
            }
        }

        @Test(
            "a replica killed mid-delivery holds its claim only until the lease ends; then another claims it, and the first can no longer reschedule it"
        )
        func leaseEndsAfterACrash() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withDatabase(keys: [key]) { handle in
                let crashed = PostgresOutbox(database: handle, owner: "replica-crashed")
                let survivor = PostgresOutbox(database: handle, owner: "replica-survivor")
                try await crashed.enqueue([delivery(1)], claimingFor: .seconds(30))
                // The first replica dies here: it never reports the attempt.
                database.clock.advance(.seconds(29))
                #expect(try await survivor.claimDue(sinks: [sink], limit: 10, lease: .seconds(30)).isEmpty, "the lease still runs")
                database.clock.advance(.seconds(1))
                let claims = try await survivor.claimDue(sinks: [sink], limit: 10, lease: .seconds(30))
                #expect(claims.map(\.id) == ["delivery-1"])
                #expect(claims.first?.attempts == 2, "the attempt cut short counts")
                #expect(
                    try await crashed.reschedule(id: "delivery-1", sink: sink, attempt: 1, retryAfter: .seconds(1), retryFor: .seconds(3600))
                        == .notClaimed
                )
                #expect(try await !crashed.giveUp(id: "delivery-1", sink: sink, attempt: 1))
                #expect(try await survivor.markDelivered(id: "delivery-1", sink: sink))
                #expect(try await survivor.pendingCount() == 0)
            }
        }

        @Test(
            "an attempt that outlived its lease cannot end the claim of a later attempt, even one of its own replica; deliveries recorded after attempts made in memory count them"
        )
        func staleAttemptIsFenced() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withDatabase(keys: [key]) { handle in
                let replica = PostgresOutbox(database: handle, owner: "replica-a")
                try await replica.enqueue([delivery(1)], claimingFor: .seconds(30))
                // Attempt 1 hangs past its lease; the same replica's claimer claims the delivery again for attempt 2.
                database.clock.advance(.seconds(30))
                #expect(try await replica.claimDue(sinks: [sink], limit: 10, lease: .seconds(30)).map(\.attempts) == [2])
                // Attempt 1 ends at last: its result changes nothing.
                #expect(
                    try await replica.reschedule(id: "delivery-1", sink: sink, attempt: 1, retryAfter: .seconds(1), retryFor: .seconds(3600))
                        == .notClaimed
                )
                #expect(try await !replica.giveUp(id: "delivery-1", sink: sink, attempt: 1))
                #expect(
                    try await database.sql("SELECT claimed_by, attempts FROM haapi_gateway_outbox") == "replica-a|2",
                    "attempt 2 still holds its claim: no other replica may start a third meanwhile"
                )
                #expect(
                    try await replica.reschedule(id: "delivery-1", sink: sink, attempt: 2, retryAfter: .seconds(1), retryFor: .seconds(3600))
                        == .willRetry
                )
                // Three attempts made from memory while the database was unreachable: the next is the fourth.
                let recorded = OutboxDelivery(id: "delivery-2", sink: sink, outcome: "error", document: Array("{}".utf8), attemptsMade: 3)
                try await replica.enqueue([recorded], claimingFor: .seconds(30))
                #expect(try await database.sql("SELECT attempts FROM haapi_gateway_outbox WHERE delivery_id = 'delivery-2'") == "4")
                #expect(
                    try await replica.reschedule(id: "delivery-2", sink: sink, attempt: 4, retryAfter: .seconds(1), retryFor: .seconds(3600))
                        == .willRetry
                )
            }
        }

        @Test("a failed attempt waits for its next one unclaimed, and is given up once the next would come after retryFor from the first failure")
        func rescheduleAndGiveUp() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withDatabase(keys: [key]) { handle in
                let replica = PostgresOutbox(database: handle, owner: "replica-a")
                let other = PostgresOutbox(database: handle, owner: "replica-b")
                try await replica.enqueue([delivery(1)], claimingFor: .seconds(30))
                #expect(
                    try await replica.reschedule(id: "delivery-1", sink: sink, attempt: 1, retryAfter: .seconds(10), retryFor: .seconds(25))
                        == .willRetry
                )
                database.clock.advance(.seconds(9))
                #expect(try await other.claimDue(sinks: [sink], limit: 10, lease: .seconds(30)).isEmpty, "not due yet")
                database.clock.advance(.seconds(1))
                let claims = try await other.claimDue(sinks: [sink], limit: 10, lease: .seconds(30))
                #expect(claims.map(\.attempts) == [2], "any replica makes the next attempt")
                // 10 s after the first failure; the next attempt 20 s later would be 30 s after it, past 25 s.
                #expect(
                    try await other.reschedule(id: "delivery-1", sink: sink, attempt: 2, retryAfter: .seconds(20), retryFor: .seconds(25)) == .givenUp
                )
                #expect(try await other.pendingCount() == 0)
                // With no retry period at all, the first failure gives up.
                try await replica.enqueue([delivery(2)], claimingFor: .seconds(30))
                #expect(try await replica.reschedule(id: "delivery-2", sink: sink, attempt: 1, retryAfter: .seconds(1), retryFor: .zero) == .givenUp)
            }
        }

        @Test("a replica claims only for its own sinks; releasing its claims at shutdown hands them to others at once")
        func sinksAndRelease() async throws {
            let database = try await StorageTestDatabase.make()
            try await database.withDatabase(keys: [key]) { handle in
                let a = PostgresOutbox(database: handle, owner: "replica-a")
                let b = PostgresOutbox(database: handle, owner: "replica-b")
                try await a.enqueue([delivery(1), delivery(2, sink: "file:/var/lib/haapi/out.json")], claimingFor: nil)
                #expect(try await a.claimDue(sinks: [sink], limit: 10, lease: .seconds(60)).map(\.sink) == [sink])
                #expect(try await b.claimDue(sinks: ["exec:/bin/other"], limit: 10, lease: .seconds(60)).isEmpty)
                #expect(try await a.releaseClaims() == 1)
                #expect(
                    Set(try await b.claimDue(sinks: [sink, "file:/var/lib/haapi/out.json"], limit: 10, lease: .seconds(60)).map(\.id)) == [
                        "delivery-1", "delivery-2",
                    ]
                )
            }
        }

        @Test("a delivery sealed under a key no longer configured is claimed with its document refused, and can be given up")
        func unreadableDelivery() async throws {
            let database = try await StorageTestDatabase.make()
            _ = try await database.withDatabase(keys: [SessionEncryptionKey.random()]) { handle in
                try await PostgresOutbox(database: handle).enqueue([delivery(1)], claimingFor: nil)
            }
            try await database.withDatabase(keys: [key]) { handle in
                let outbox = PostgresOutbox(database: handle, owner: "replica-a")
                let claims = try await outbox.claimDue(sinks: [sink], limit: 10, lease: .seconds(60))
                #expect(claims.map(\.document) == [.failure(.noMatchingKey)])
                #expect(try await outbox.giveUp(id: "delivery-1", sink: sink, attempt: 1))
                #expect(try await outbox.pendingCount() == 0)
            }
        }
    }
}
