import HAAPI
import HAAPIGateway
import PostgresNIO

/// What the gateway learned about its upstream, in the database of `sessions.store: postgres`
/// (`haapi_gateway_upstream_facts`, schema version 3): one row per issuer and client id saying whether the upstream
/// issues token-bound authorization codes, and when that was learned. Every replica reads it (``UpstreamFactKeeper``)
/// and the first to learn a change writes it, so that a restart or another replica proves its first exchange at once.
/// Nothing secret is in it, and nothing is sealed. Each read and write has the database's operation time limit
/// (`PostgresDatabase.Options.operationTimeout`), as every other statement: a warm pool answers in a millisecond.
struct PostgresUpstreamFacts: UpstreamFactStore {
    let database: PostgresDatabase
    var place: String { "\(PostgresSchema.upstreamFactsTable) in \(database.name)" }
    var isShared: Bool { true }
    var isReady: Bool { database.tablesPrepared }

    func finding(for key: UpstreamFactKey) async throws(UpstreamFactError) -> CodeExchangeFinding {
        var bindings = PostgresBindings(capacity: 2)
        bindings.append(key.issuer)
        bindings.append(key.clientID)
        let query = PostgresQuery(
            unsafeSQL: "SELECT token_bound_codes FROM haapi_gateway_upstream_facts WHERE issuer = $1 AND client_id = $2",
            binds: bindings
        )
        do throws(PostgresStorageError) {
            let tokenBound = try await database.perform("read the upstream facts") { client in
                try await client.query(query).decode(Bool.self).first { _ in true }
            }
            guard let tokenBound else { return .unknown }
            return tokenBound ? .proofRequired : .proofNotRequired
        } catch {
            throw UpstreamFactError(error.message)
        }
    }

    func record(_ finding: CodeExchangeFinding, for key: UpstreamFactKey) async throws(UpstreamFactError) {
        var bindings = PostgresBindings(capacity: 3)
        bindings.append(key.issuer)
        bindings.append(key.clientID)
        let query: PostgresQuery
        if finding == .unknown {
            query = PostgresQuery(unsafeSQL: "DELETE FROM haapi_gateway_upstream_facts WHERE issuer = $1 AND client_id = $2", binds: bindings)
        } else {
            bindings.append(finding == .proofRequired)
            query = PostgresQuery(
                unsafeSQL: """
                    INSERT INTO haapi_gateway_upstream_facts (issuer, client_id, token_bound_codes, learned_at) VALUES ($1, $2, $3, now())
                    ON CONFLICT (issuer, client_id) DO UPDATE SET token_bound_codes = EXCLUDED.token_bound_codes, learned_at = EXCLUDED.learned_at
                    """,
                binds: bindings
            )
        }
        do throws(PostgresStorageError) {
            try await database.perform("keep the upstream facts") { client in
                _ = try await client.query(query).collect()
            }
        } catch {
            throw UpstreamFactError(error.message)
        }
    }
}
