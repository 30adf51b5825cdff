import Foundation

/// The start links used, in this process's memory (``StartLinkLedger``): each signature until its link expires.
actor MemoryStartLinkLedger: StartLinkLedger {
    private var used: [String: Date] = [:]

    func use(signature: String, expiry: Date, now: Date) -> Bool {
        used = used.filter { $0.value > now }
        guard used[signature] == nil else { return false }
        used[signature] = expiry
        return true
    }
}
