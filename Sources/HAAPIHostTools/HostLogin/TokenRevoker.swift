import Foundation
import HAAPI

/// What `logout` does with the tokens of `login`: revokes them (RFC 7009) and, once every revocation was accepted,
/// deletes the token file. While a revocation fails the file is kept, to try again.
public struct TokenRevoker: Sendable {
    /// Which tokens are revoked.
    public enum Selection: Sendable {
        /// The refresh token if there is one, else the access token (an upstream revokes a refresh token's access
        /// tokens with it).
        case refreshTokenElseAccessToken
        /// The refresh token if there is one, then the access token (a central gateway: revoking one need not end the
        /// other).
        case refreshTokenThenAccessToken
    }

    /// What signing out came to.
    public enum Outcome: Sendable, Equatable {
        /// Revoked, and the token file deleted.
        case signedOut
        /// A revocation was refused with an OAuth error; the file is kept.
        case refused(OAuthErrorResponse)
        /// A revocation could not be asked (no revocation endpoint, the network); the file is kept.
        case failed(HAAPIError)
        /// Revoked, but the token file could not be deleted.
        case notDeleted
    }

    /// The token file.
    public let path: String
    /// Which tokens are revoked.
    public let selection: Selection

    /// Creates a revoker.
    /// - Parameters:
    ///   - path: The token file.
    ///   - selection: Which tokens are revoked.
    public init(path: String, selection: Selection) {
        self.path = path
        self.selection = selection
    }

    /// Revokes `tokens` through `manager`, then deletes the token file.
    /// - Parameters:
    ///   - tokens: The tokens of the file.
    ///   - manager: The token manager of the server that issued them (an upstream, or a central gateway's).
    public func signOut(_ tokens: OAuthTokens, with manager: TokenManager) async -> Outcome {
        var revocations: [(token: String, hint: String)] = tokens.refreshToken.map { [($0, "refresh_token")] } ?? []
        if selection == .refreshTokenThenAccessToken || revocations.isEmpty { revocations.append((tokens.accessToken, "access_token")) }
        for revocation in revocations {
            do {
                if case .oauthError(let error) = try await manager.revoke(token: revocation.token, typeHint: revocation.hint) {
                    return .refused(error)
                }
            } catch {
                return .failed(error)
            }
        }
        return Self.delete(path)
    }

    /// Signs out of tokens no server can use or revoke any more, the embedded demo upstream's (which ended with the
    /// `login` that issued them, ``TokenFile/issuedByEmbeddedDemo(_:)``): nothing to revoke, so the token file is deleted.
    /// - Parameter path: The token file.
    public static func discard(tokenFile path: String) -> Outcome {
        delete(path)
    }

    private static func delete(_ path: String) -> Outcome {
        do {
            try FileManager.default.removeItem(atPath: path)
        } catch {
            return .notDeleted
        }
        return .signedOut
    }
}
