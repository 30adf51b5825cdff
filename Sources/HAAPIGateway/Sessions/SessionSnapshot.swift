import HAAPI

/// What a page needs from a session, taken under the session's isolation (one-shot notices are consumed).
struct SessionSnapshot: Sendable {
    let phase: SessionPhase
    let step: Representation?
    let version: Int
    let csrfToken: String
    /// Messages for this rendering only (problems, stale submissions).
    let notices: [String]
    /// Field error texts by field name, for this rendering only.
    let fieldErrors: [String: String]
    /// Values the person typed, to refill (never passwords), for this rendering only.
    let values: [String: String]
}
