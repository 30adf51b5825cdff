import Foundation
import Synchronization

/// Single-use authorization codes.
final class AuthorizationCodeStore: Sendable {
    private let codes = Mutex<[String: AuthorizationCode]>([:])

    /// Stores the grant under a new code.
    func issue(_ grant: AuthorizationCode) -> String {
        let code = RandomToken.make()
        codes.withLock { codes in
            let now = Date()
            if codes.count > 1000 { codes = codes.filter { $0.value.expiresAt > now } }
            codes[code] = grant
        }
        return code
    }

    /// Removes and returns the grant; any second presentation finds nothing.
    func redeem(_ code: String, now: Date = Date()) -> AuthorizationCode? {
        codes.withLock { codes in
            guard let grant = codes.removeValue(forKey: code), grant.expiresAt > now else { return nil }
            return grant
        }
    }
}
