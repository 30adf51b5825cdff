import HAAPIGateway
import Synchronization

/// What a store that keeps session documents remembers of one checkout: the version, document and session revision it
/// loaded (or last saved), so that a check-in writes only what changed and only over that version, and the claim the
/// request holds.
final class SessionTicket: SessionHold {
    struct State: Sendable {
        /// The row's version as loaded or last saved.
        var version: Int64
        /// The document as loaded or last saved (in clear: it never leaves this process).
        var document: [UInt8]
        /// The session's revision (``SignInSession/revision``) when it was loaded or last saved: while it is the same,
        /// the session is unchanged and a check-in writes nothing.
        var revision: Int
        /// The claim this request holds, until checked in.
        var claim: String?
        /// Whether the session went to the store's cache at a check-in (once per checkout: another request may have
        /// taken it from there since).
        var cached = false
    }

    let state: Mutex<State>

    init(version: Int64, document: [UInt8], revision: Int, claim: String? = nil) {
        state = Mutex(State(version: version, document: document, revision: revision, claim: claim))
    }

    var storedVersion: Int64 { state.withLock { $0.version } }

    /// Ends the request's hold for a check-in: takes the claim (the check-in's write releases it).
    /// - Returns: The version and document a write is over, and the claim it releases.
    func takeHold() -> (version: Int64, document: [UInt8], claim: String?) {
        state.withLock { state in
            defer { state.claim = nil }
            return (state.version, state.document, state.claim)
        }
    }

    /// Records a write of `document` as `version` (the session's `revision` when it was encoded, if it changed).
    func saved(version: Int64, document: [UInt8], revision: Int?) {
        state.withLock { state in
            state.version = version
            state.document = document
            if let revision { state.revision = revision }
        }
    }
}
