import Foundation
import Synchronization

/// Single-use authorization codes. A code presented again revokes what was issued for it
/// (RFC 6749 §4.1.2: "the authorization server ... SHOULD revoke all tokens previously issued based on that authorization code").
final class AuthorizationCodeStore: Sendable {
    /// The result of presenting a code.
    enum Redemption: Sendable {
        /// First use: the grant, now consumed.
        case redeemed(AuthorizationCode)
        /// The code was used before; the grant id of the tokens issued then.
        case reused(grantID: String)
        /// Unknown or expired.
        case invalid
    }

    private struct State {
        var codes: [String: AuthorizationCode] = [:]
        var usedCodes: [String: (grantID: String, expiresAt: Date)] = [:]
    }

    private let state = Mutex(State())

    /// Stores the grant under a new code.
    func issue(_ grant: AuthorizationCode) -> String {
        let code = RandomToken.make()
        state.withLock { state in
            let now = Date()
            if state.codes.count > 1000 { state.codes = state.codes.filter { $0.value.expiresAt > now } }
            if state.usedCodes.count > 1000 { state.usedCodes = state.usedCodes.filter { $0.value.expiresAt > now } }
            state.codes[code] = grant
        }
        return code
    }

    /// The grant of an unused, unexpired code, without consuming it.
    func peek(_ code: String, now: Date = Date()) -> AuthorizationCode? {
        state.withLock { state in
            guard let grant = state.codes[code], grant.expiresAt > now else { return nil }
            return grant
        }
    }

    /// Consumes the code; tokens issued for it will belong to `grantID`.
    func redeem(_ code: String, grantID: String, now: Date = Date()) -> Redemption {
        state.withLock { state in
            if let used = state.usedCodes[code] { return .reused(grantID: used.grantID) }
            guard let grant = state.codes.removeValue(forKey: code), grant.expiresAt > now else { return .invalid }
            // Remember the code for a while after its expiry so a late replay is still detected.
            state.usedCodes[code] = (grantID, grant.expiresAt.addingTimeInterval(600))
            return .redeemed(grant)
        }
    }
}
