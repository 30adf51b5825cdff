import Foundation
import Synchronization

/// The demo users' passkeys, in memory for the life of the server, and each user's WebAuthn user handle
/// (random, so that it names nobody).
final class PasskeyStore: Sendable {
    private struct Account {
        let userHandle: [UInt8]
        var passkeys: [StoredPasskey] = []
    }

    /// How many passkeys one demo user may register.
    static let maximumPasskeysPerUser = 8

    private let accounts = Mutex<[String: Account]>([:])

    /// The user handle of a demo user, made on first use.
    func userHandle(of username: String) -> [UInt8] {
        accounts.withLock { accounts in
            if let account = accounts[username] { return account.userHandle }
            var generator = SystemRandomNumberGenerator()
            let handle = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            accounts[username] = Account(userHandle: handle)
            return handle
        }
    }

    /// The passkeys of a demo user.
    func passkeys(of username: String) -> [StoredPasskey] {
        accounts.withLock { $0[username]?.passkeys ?? [] }
    }

    /// Adds a verified passkey; false when its credential id is already registered (to anyone) or the user has too many.
    func register(_ passkey: StoredPasskey, for username: String) -> Bool {
        accounts.withLock { accounts in
            guard !accounts.values.contains(where: { $0.passkeys.contains { $0.credentialID == passkey.credentialID } }),
                var account = accounts[username], account.passkeys.count < Self.maximumPasskeysPerUser
            else { return false }
            account.passkeys.append(passkey)
            accounts[username] = account
            return true
        }
    }

    /// Records the counter of a verified assertion (WebAuthn Level 2 §7.2 step 21): when either counter is non-zero
    /// the new one must be greater than the stored one; false (a possibly cloned authenticator) otherwise.
    func recordAssertion(credentialID: [UInt8], signCount: UInt32, for username: String) -> Bool {
        accounts.withLock { accounts in
            guard var account = accounts[username], let index = account.passkeys.firstIndex(where: { $0.credentialID == credentialID }) else {
                return false
            }
            let stored = account.passkeys[index].signCount
            if signCount != 0 || stored != 0 {
                guard signCount > stored else { return false }
            }
            account.passkeys[index].signCount = signCount
            accounts[username] = account
            return true
        }
    }
}
