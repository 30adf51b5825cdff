import Foundation

/// Where the PostgreSQL database is and how to reach it, from `sessions.postgresURL` (or the file of
/// `sessions.postgresURLFile`): `postgres://user:password@host:port/database?sslmode=verify-full`, libpq's URI form.
///
/// - `postgresql://` is accepted too; the port defaults to 5432; user name and password are percent-decoded.
/// - A host that is a percent-encoded absolute path (`postgres://gateway@%2Fvar%2Frun%2Fpostgresql/haapi`) is the
///   directory of the server's Unix socket.
/// - `sslmode` (libpq's names): `disable`; `prefer` and `require` (encrypted, the certificate not checked, as libpq
///   does); `verify-ca` (the chain checked against the trust roots); `verify-full` (the chain and the host name; the
///   default). `sslrootcert` names a PEM file of trust roots to use instead of the system's.
///
/// Its ``description``, `debugDescription` and `dump` never contain the password.
public struct PostgresURL: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// How the connection is encrypted, by libpq's `sslmode` names.
    public enum TLSMode: String, Sendable, CaseIterable {
        /// Plain TCP.
        case disable
        /// TLS when the server offers it, else plain; the certificate is not checked.
        case prefer
        /// TLS; the certificate is not checked.
        case require
        /// TLS; the certificate chain is checked against the trust roots, the host name is not.
        case verifyCA = "verify-ca"
        /// TLS; the certificate chain and the host name are checked.
        case verifyFull = "verify-full"
    }

    /// The server's host name or address (nil for a Unix socket).
    public let host: String?
    /// The server's port (also names the Unix socket: `.s.PGSQL.<port>`).
    public let port: Int
    /// The Unix socket's directory, when the host is a path.
    public let socketDirectory: String?
    /// The user to sign in as.
    public let username: String
    /// The password, if any (never printed).
    public let password: String?
    /// The database (nil: PostgreSQL's default, the user's name).
    public let database: String?
    /// How the connection is encrypted.
    public let tlsMode: TLSMode
    /// A PEM file of trust roots for `verify-ca` and `verify-full` (`sslrootcert`), else the system's.
    public let trustRootsFile: String?

    /// The URL with the password replaced by ``SecretRedaction/marker``.
    public var description: String {
        let user = Self.encodedUserInfo(username) + (password == nil ? "" : ":\(SecretRedaction.marker)")
        let place = socketDirectory.map { "[socket \($0)]" } ?? (host.map { $0.contains(":") ? "[\($0)]" : $0 } ?? "")
        let root = trustRootsFile.map { "&sslrootcert=\($0)" } ?? ""
        return "postgres://\(user)@\(place):\(port)/\(database ?? "")?sslmode=\(tlsMode.rawValue)\(root)"
    }

    /// The same as ``description``.
    public var debugDescription: String { description }

    /// No members, so that `dump` shows ``description`` alone and no secret.
    public var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }

    /// Why a text is not a usable PostgreSQL URL; the messages never repeat the text (it may hold a password).
    public struct Refusal: Error, Sendable, Equatable {
        /// What is wrong, for a configuration problem line.
        public let message: String
    }

    /// Reads a `postgres://` URL.
    /// - Parameter text: The URL as configured.
    /// - Returns: The parsed URL, or why it was refused (never quoting the text).
    public static func parse(_ text: String) -> Result<PostgresURL, Refusal> {
        let example = "such as postgres://user:password@host:5432/database?sslmode=verify-full"
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            return .failure(Refusal(message: "must not contain whitespace or control characters"))
        }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased() else {
            return .failure(Refusal(message: "is not a URL (\(example))"))
        }
        guard scheme == "postgres" || scheme == "postgresql" else {
            return .failure(Refusal(message: "must start with postgres:// or postgresql:// (\(example))"))
        }
        guard let username = components.user, !username.isEmpty else {
            return .failure(Refusal(message: "names no user (\(example))"))
        }
        guard var rawHost = components.percentEncodedHost.flatMap({ $0.removingPercentEncoding }), !rawHost.isEmpty else {
            return .failure(Refusal(message: "names no host (\(example))"))
        }
        if rawHost.hasPrefix("["), rawHost.hasSuffix("]") { rawHost = String(rawHost.dropFirst().dropLast()) }
        let port = components.port ?? 5432
        guard (1...65_535).contains(port) else { return .failure(Refusal(message: "has a port outside 1 to 65535")) }
        var path = components.path
        if path.hasPrefix("/") { path.removeFirst() }
        guard !path.contains("/") else { return .failure(Refusal(message: "must name one database after the host, not a path")) }
        var tlsMode: TLSMode?
        var trustRootsFile: String?
        var seen: Set<String> = []
        for item in components.queryItems ?? [] {
            guard seen.insert(item.name).inserted else { return .failure(Refusal(message: "sets '\(item.name)' twice")) }
            switch item.name {
            case "sslmode":
                guard let value = item.value, let mode = TLSMode(rawValue: value) else {
                    return .failure(
                        Refusal(message: "has an sslmode other than \(TLSMode.allCases.map(\.rawValue).joined(separator: ", "))")
                    )
                }
                tlsMode = mode
            case "sslrootcert":
                guard let value = item.value, value.hasPrefix("/") else {
                    return .failure(Refusal(message: "needs an absolute path for sslrootcert"))
                }
                trustRootsFile = value
            default:
                return .failure(
                    Refusal(message: "has the parameter '\(item.name)', which the gateway does not read (it reads sslmode and sslrootcert)")
                )
            }
        }
        let isSocket = rawHost.hasPrefix("/")
        if isSocket, let tlsMode, tlsMode != .disable {
            return .failure(Refusal(message: "names a Unix socket, which takes no sslmode but disable"))
        }
        let mode = tlsMode ?? (isSocket ? .disable : .verifyFull)
        if trustRootsFile != nil, mode != .verifyCA, mode != .verifyFull {
            return .failure(Refusal(message: "sets sslrootcert, which only verify-ca and verify-full use"))
        }
        return .success(
            PostgresURL(
                host: isSocket ? nil : rawHost,
                port: port,
                socketDirectory: isSocket ? rawHost : nil,
                username: username,
                password: components.password,
                database: path.isEmpty ? nil : path.removingPercentEncoding ?? path,
                tlsMode: mode,
                trustRootsFile: trustRootsFile
            )
        )
    }

    private static func encodedUserInfo(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .urlUserAllowed.subtracting(CharacterSet(charactersIn: ":@"))) ?? text
    }
}
