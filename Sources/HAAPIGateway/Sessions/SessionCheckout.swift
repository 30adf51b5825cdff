import Synchronization

/// One request's hold on a session: the live session it acts on, its id (which a rotation changes), and for a store
/// that keeps documents, what it loaded (``SessionHold``). A request checks in every checkout it made when it ends
/// (``SessionCheckInMiddleware``), so that a shared store keeps what changed and releases the sign-in even when the
/// request failed.
package final class SessionCheckout<Session: Sendable>: Sendable {
    /// The live session.
    package let session: Session
    /// What a store that keeps documents loaded (nil for the memory store).
    package let hold: (any SessionHold)?
    private let currentID: Mutex<String>

    /// - Parameters:
    ///   - id: The session id.
    ///   - session: The live session.
    ///   - hold: What a store that keeps documents loaded.
    package init(id: String, session: Session, hold: (any SessionHold)? = nil) {
        self.currentID = Mutex(id)
        self.session = session
        self.hold = hold
    }

    /// The session id (the cookie's value).
    package var id: String { currentID.withLock { $0 } }

    /// The version of the stored document this checkout loaded or last saved (nil for the memory store): a redirect
    /// after a post names it, so that the page it leads to may be shown from what this replica kept
    /// (``SessionUse/readingAfterPost(savedVersion:)``).
    var storedVersion: Int64? { hold?.storedVersion }

    /// The session now has `id` (a rotation).
    package func moved(to id: String) {
        currentID.withLock { $0 = id }
    }
}
