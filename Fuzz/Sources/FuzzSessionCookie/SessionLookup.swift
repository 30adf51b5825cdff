import Foundation

@testable import HAAPIGateway

/// A session store with one session, looked up synchronously from the fuzzer's thread.
enum SessionLookup {
    nonisolated(unsafe) static var store: MemorySessionStore<String>? = nil
    nonisolated(unsafe) static var knownID = ""

    /// The stored session for `id`, or nil.
    static func find(_ id: String) -> String? {
        let semaphore = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var found: String?
        Task.detached {
            if store == nil {
                let fresh = MemorySessionStore<String>(settings: SessionSettings())
                knownID = await fresh.insert("session") ?? ""
                store = fresh
            }
            found = await store?.session(id: id)
            semaphore.signal()
        }
        semaphore.wait()
        return found
    }
}
