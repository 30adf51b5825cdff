import Foundation
import HAAPIGateway
import Testing

/// `sessions.store`, `sessions.postgresURL` / `sessions.postgresURLFile` and `sessions.encryptionKeysFile`: every
/// problem listed, and neither the URL's password nor a key ever printed.
@Suite("Session store configuration")
struct SessionStoreConfigurationTests {
    private func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("session-store-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func problems(_ environment: [String: String], file: String? = nil) -> [String] {
        do {
            _ = try GatewayConfiguration.load(file: file, environment: environment)
            return []
        } catch {
            return error.problems
        }
    }

    @Test("postgres with a URL file and a key file loads; the summary names the database and the sealing key's id, never the password or a key")
    func postgresLoads() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let old = SessionEncryptionKey.random()
        let new = SessionEncryptionKey.random()
        try "# rotated 2026-11\n\(new.base64)\n\n\(old.base64)\n".write(
            to: directory.appendingPathComponent("keys"),
            atomically: true,
            encoding: .utf8
        )
        try "postgres://gateway:s3cr%40t-password@db.example.com:6432/haapi?sslmode=verify-ca\n".write(
            to: directory.appendingPathComponent("url"),
            atomically: true,
            encoding: .utf8
        )
        let file = directory.appendingPathComponent("gateway.yaml")
        try "sessions:\n  store: postgres\n  postgresURLFile: url\n  encryptionKeysFile: keys\n".write(to: file, atomically: true, encoding: .utf8)
        let configuration = try GatewayConfiguration.load(file: file.path, environment: [:])
        guard case .postgres(let store) = configuration.sessions.store else {
            Issue.record("expected postgres")
            return
        }
        #expect(store.url.host == "db.example.com" && store.url.port == 6432 && store.url.database == "haapi")
        #expect(store.url.username == "gateway" && store.url.password == "s3cr@t-password")
        #expect(store.url.tlsMode == .verifyCA)
        #expect(store.encryptionKeys == [new, old], "in the file's order, the first sealing")
        let summary = configuration.summary.joined(separator: "\n")
        #expect(summary.contains("session store: PostgreSQL at postgres://gateway:<redacted>@db.example.com:6432/haapi?sslmode=verify-ca"))
        #expect(summary.contains(new.idHex) && summary.contains("1 more opening older documents"))
        #expect(!summary.contains("s3cr") && !summary.contains(new.base64) && !summary.contains(old.base64))
        #expect(store.synchronousCommit == false, "sign-in rows commit without waiting for the disk by default")
        #expect(summary.contains("sign-in rows commit without waiting for the disk (sessions.synchronousCommit: false)"))

        try "sessions:\n  store: postgres\n  postgresURLFile: url\n  encryptionKeysFile: keys\n  synchronousCommit: true\n".write(
            to: file,
            atomically: true,
            encoding: .utf8
        )
        let waiting = try GatewayConfiguration.load(file: file.path, environment: [:])
        guard case .postgres(let durable) = waiting.sessions.store else {
            Issue.record("expected postgres")
            return
        }
        #expect(durable.synchronousCommit)
        #expect(waiting.summary.joined(separator: "\n").contains("every commit waits for the disk"))
        #expect(
            problems(["HAAPI_GATEWAY_SESSIONS_SYNCHRONOUS_COMMIT": "true"]).contains {
                $0.contains("sessions.synchronousCommit") && $0.contains("sessions.store is memory")
            }
        )
    }

    @Test("the URL in the environment, sslmode defaulting to verify-full; a Unix socket directory as the host")
    func urlForms() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try "\(SessionEncryptionKey.random().base64)\n".write(to: directory.appendingPathComponent("keys"), atomically: true, encoding: .utf8)
        let keys = directory.appendingPathComponent("keys").path
        let tcp = try GatewayConfiguration.load(
            file: nil,
            environment: [
                "HAAPI_GATEWAY_SESSIONS_STORE": "postgres", "HAAPI_GATEWAY_SESSIONS_POSTGRES_URL": "postgresql://gateway:pw@[::1]/haapi",
                "HAAPI_GATEWAY_SESSIONS_ENCRYPTION_KEYS_FILE": keys,
            ]
        )
        guard case .postgres(let store) = tcp.sessions.store else {
            Issue.record("expected postgres")
            return
        }
        #expect(store.url.host == "::1" && store.url.port == 5432 && store.url.tlsMode == .verifyFull)
        let socket = try PostgresURL.parse("postgres://gateway@%2Fvar%2Frun%2Fpostgresql/haapi").get()
        #expect(socket.socketDirectory == "/var/run/postgresql" && socket.host == nil && socket.tlsMode == .disable && socket.password == nil)
    }

    @Test("every problem at once, naming the key, never quoting the URL or a key line")
    func problemsAreListed() throws {
        let directory = try directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = SessionEncryptionKey.random().base64
        try "\(good)\nnot-a-key-line-with-secret-material\n\(Data(repeating: 7, count: 16).base64EncodedString())\n\(good)\n".write(
            to: directory.appendingPathComponent("bad-keys"),
            atomically: true,
            encoding: .utf8
        )
        try "# only a comment\n\n".write(to: directory.appendingPathComponent("empty-keys"), atomically: true, encoding: .utf8)
        let badKeys = directory.appendingPathComponent("bad-keys").path

        let memory = problems(["HAAPI_GATEWAY_SESSIONS_POSTGRES_URL": "postgres://u:pw@h/d", "HAAPI_GATEWAY_SESSIONS_ENCRYPTION_KEYS_FILE": badKeys])
        #expect(memory.count == 2 && memory.allSatisfy { $0.contains("sessions.store is memory") }, "\(memory)")

        let missing = problems(["HAAPI_GATEWAY_SESSIONS_STORE": "postgres"])
        #expect(missing.contains { $0.contains("needs sessions.postgresURL or sessions.postgresURLFile") }, "\(missing)")
        #expect(missing.contains { $0.contains("needs sessions.encryptionKeysFile") }, "\(missing)")

        let bad = problems([
            "HAAPI_GATEWAY_SESSIONS_STORE": "postgres", "HAAPI_GATEWAY_SESSIONS_POSTGRES_URL": "mysql://gateway:hunter2-password@db/haapi",
            "HAAPI_GATEWAY_SESSIONS_ENCRYPTION_KEYS_FILE": badKeys,
        ])
        #expect(bad.contains { $0.hasPrefix("sessions.postgresURL") && $0.contains("must start with postgres://") }, "\(bad)")
        #expect(bad.contains { $0.contains("line 2 is not the base64 of 32 bytes") })
        #expect(bad.contains { $0.contains("line 3 is not the base64 of 32 bytes") })
        #expect(bad.contains { $0.contains("line 4 repeats the key of line 1") })
        let joined = bad.joined(separator: "\n")
        #expect(!joined.contains("hunter2") && !joined.contains("secret-material") && !joined.contains(good))

        for (url, expected) in [
            ("postgres://gateway:hunter2-password@db/haapi?sslmode=maybe", "has an sslmode other than"),
            ("postgres://gateway:hunter2-password@db/haapi?application_name=x", "does not read"),
            ("postgres://:hunter2-password@db/haapi", "names no user"),
            ("postgres://gateway:hunter2-password@db/haapi?sslmode=require&sslrootcert=/etc/ca.pem", "only verify-ca and verify-full use"),
            (
                "postgres://gateway:hunter2-password@db/haapi?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem",
                "sslrootcert: cannot read /nonexistent/ca.pem: it does not exist"
            ),
        ] {
            let found = problems([
                "HAAPI_GATEWAY_SESSIONS_STORE": "postgres", "HAAPI_GATEWAY_SESSIONS_POSTGRES_URL": url,
                "HAAPI_GATEWAY_SESSIONS_ENCRYPTION_KEYS_FILE": directory.appendingPathComponent("empty-keys").path,
            ])
            #expect(found.contains { $0.contains(expected) }, "\(url): \(found)")
            #expect(found.contains { $0.contains("holds no key") }, "\(found)")
            #expect(!found.joined().contains("hunter2"), "\(found)")
        }

        let both = problems([
            "HAAPI_GATEWAY_SESSIONS_STORE": "postgres", "HAAPI_GATEWAY_SESSIONS_POSTGRES_URL": "postgres://u:hunter2@h/d",
            "HAAPI_GATEWAY_SESSIONS_POSTGRES_URL_FILE": badKeys, "HAAPI_GATEWAY_SESSIONS_ENCRYPTION_KEYS_FILE": badKeys,
        ])
        #expect(both.contains { $0.contains("set either sessions.postgresURL or sessions.postgresURLFile, not both") }, "\(both)")
        #expect(problems(["HAAPI_GATEWAY_SESSIONS_STORE": "redis"]).contains { $0.contains("must be memory or postgres; got 'redis'") })
    }
}
