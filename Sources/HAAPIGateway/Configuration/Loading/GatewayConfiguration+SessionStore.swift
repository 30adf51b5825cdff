import Foundation

extension GatewayConfiguration {
    /// `sessions.store` (`memory` or `postgres`) and, for `postgres`, the database (`sessions.postgresURL` or
    /// `sessions.postgresURLFile`, one of them), the key file (`sessions.encryptionKeysFile`) and whether sign-in rows wait
    /// for the disk (`sessions.synchronousCommit`). No problem quotes the
    /// URL or a key: the URL may hold a password.
    static func resolveSessionStore(_ reader: inout ConfigurationReader) -> SessionStoreSettings {
        let postgresKeys: [ConfigurationKey] = [
            .sessionsPostgresURL, .sessionsPostgresURLFile, .sessionsEncryptionKeysFile, .sessionsSynchronousCommit,
        ]
        let kind = reader.string(.sessionsStore)?.trimmingCharacters(in: .whitespaces).lowercased() ?? "memory"
        switch kind {
        case "memory":
            for key in postgresKeys where reader.isSet(key) {
                reader.problem(
                    key,
                    "is set, but \(ConfigurationKey.sessionsStore.path) is memory (set \(ConfigurationKey.sessionsStore.path): postgres to keep sessions in PostgreSQL)"
                )
            }
            return .memory
        case "postgres":
            var url: PostgresURL?
            if reader.isSet(.sessionsPostgresURL) || reader.isSet(.sessionsPostgresURLFile) {
                if let text = reader.secret(.sessionsPostgresURL, fileKey: .sessionsPostgresURLFile) {
                    let key: ConfigurationKey = reader.isSet(.sessionsPostgresURL) ? .sessionsPostgresURL : .sessionsPostgresURLFile
                    switch PostgresURL.parse(text) {
                    case .success(let parsed): url = parsed
                    case .failure(let refusal): reader.problem(key, refusal.message)
                    }
                }
            } else {
                reader.problem(
                    .sessionsStore,
                    "postgres needs \(ConfigurationKey.sessionsPostgresURL.path) or \(ConfigurationKey.sessionsPostgresURLFile.path) (or \(ConfigurationKey.sessionsPostgresURL.environmentName))"
                )
            }
            if let root = url?.trustRootsFile, !FileManager.default.isReadableFile(atPath: root) {
                reader.problem(
                    reader.isSet(.sessionsPostgresURL) ? .sessionsPostgresURL : .sessionsPostgresURLFile,
                    "sslrootcert: " + FileAccess.cannotRead(root),
                    unreadableInput: true
                )
            }
            var keys: [SessionEncryptionKey]?
            if reader.isSet(.sessionsEncryptionKeysFile) {
                keys = resolveEncryptionKeys(&reader)
            } else {
                reader.problem(
                    .sessionsStore,
                    "postgres needs \(ConfigurationKey.sessionsEncryptionKeysFile.path) (one base64 256-bit key per line, such as `openssl rand -base64 32`)"
                )
            }
            let synchronousCommit = reader.booleanOrDefault(.sessionsSynchronousCommit)
            guard let url, let keys else { return .memory }
            return .postgres(PostgresStoreSettings(url: url, encryptionKeys: keys, synchronousCommit: synchronousCommit))
        default:
            reader.problem(.sessionsStore, "must be memory or postgres; got '\(kind)'")
            return .memory
        }
    }

    /// The keys of `sessions.encryptionKeysFile`: one base64 256-bit key per line, the first sealing; blank lines and
    /// lines starting with `#` are skipped. A problem names the line, never its text.
    private static func resolveEncryptionKeys(_ reader: inout ConfigurationReader) -> [SessionEncryptionKey]? {
        let fileKey = ConfigurationKey.sessionsEncryptionKeysFile
        guard let text = reader.fileContents(fileKey) else { return nil }
        var keys: [SessionEncryptionKey] = []
        var lineOfKey: [[UInt8]: Int] = [:]
        var valid = true
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespaces.union(CharacterSet(charactersIn: "\r")))
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let key = SessionEncryptionKey(base64: line) else {
                reader.problem(fileKey, "line \(index + 1) is not the base64 of 32 bytes (make a key with `openssl rand -base64 32`)")
                valid = false
                continue
            }
            if let first = lineOfKey[key.id] {
                reader.problem(fileKey, "line \(index + 1) repeats the key of line \(first)")
                valid = false
                continue
            }
            lineOfKey[key.id] = index + 1
            keys.append(key)
        }
        if keys.isEmpty, valid {
            reader.problem(fileKey, "holds no key (one base64 256-bit key per line, such as `openssl rand -base64 32`)")
        }
        return valid && !keys.isEmpty ? keys : nil
    }
}
