import Foundation
import Synchronization

/// Opaque access and refresh tokens with server-side records; refresh tokens rotate on use.
final class TokenStore: Sendable {
    private struct State {
        var tokens: [String: IssuedToken] = [:]
        /// Refresh tokens already rotated away, by grant; presenting one again is refused (and may revoke the grant).
        var rotatedRefreshTokens: [String: (grantID: String, expiresAt: Date)] = [:]
        var revokedGrants: Set<String> = []
    }

    private let state = Mutex(State())

    /// Stores a record under a new random token and returns the token.
    func issue(_ record: IssuedToken) -> String {
        let token = RandomToken.make()
        state.withLock { state in
            Self.purge(&state, now: Date())
            state.tokens[token] = record
        }
        return token
    }

    /// The live record of `token` of the given kind, or nil when unknown, expired or revoked.
    func lookup(_ token: String, kind: IssuedToken.Kind, now: Date = Date()) -> IssuedToken? {
        state.withLock { state in
            guard let record = state.tokens[token], record.kind == kind, record.expiresAt > now,
                !state.revokedGrants.contains(record.grantID)
            else { return nil }
            return record
        }
    }

    /// Consumes a refresh token for rotation. A token presented again after its rotation is refused, and revokes its
    /// whole grant when `revokingGrantOnReuse` (``DemoServerConfiguration/revokesGrantOnRefreshTokenReuse``).
    func redeemRefreshToken(_ token: String, revokingGrantOnReuse: Bool, now: Date = Date()) -> IssuedToken? {
        state.withLock { state in
            if let rotated = state.rotatedRefreshTokens[token] {
                if revokingGrantOnReuse { state.revokedGrants.insert(rotated.grantID) }
                return nil
            }
            guard let record = state.tokens[token], record.kind == .refresh, record.expiresAt > now,
                !state.revokedGrants.contains(record.grantID)
            else { return nil }
            state.tokens[token] = nil
            state.rotatedRefreshTokens[token] = (record.grantID, record.expiresAt)
            return record
        }
    }

    /// RFC 7009 revocation: a refresh token revokes its grant (and so its access tokens); an access
    /// token only itself. Tokens of other clients and unknown tokens are ignored.
    func revoke(_ token: String, clientID: String) {
        state.withLock { state in
            guard let record = state.tokens[token], record.clientID == clientID else { return }
            state.tokens[token] = nil
            if record.kind == .refresh { state.revokedGrants.insert(record.grantID) }
        }
    }

    /// Revokes every token of a grant (a reused authorization code).
    func revokeGrant(_ grantID: String) {
        state.withLock { _ = $0.revokedGrants.insert(grantID) }
    }

    private static func purge(_ state: inout State, now: Date) {
        guard state.tokens.count % 64 == 0 else { return }
        state.tokens = state.tokens.filter { $0.value.expiresAt > now }
        state.rotatedRefreshTokens = state.rotatedRefreshTokens.filter { $0.value.expiresAt > now }
    }
}
