import HAAPI

/// What a page needs from a session, taken under the session's isolation (one-shot notices are consumed).
struct SessionSnapshot: Sendable {
    let phase: SessionPhase
    let step: Representation?
    let version: Int
    let csrfToken: String
    /// Messages for this rendering only (problems, stale submissions).
    let notices: [PageText]
    /// Field error texts by field name, for this rendering only.
    let fieldErrors: [String: PageText]
    /// Values the person typed, to refill (never passwords), for this rendering only.
    let values: [String: String]
    /// Whether a callback sink has not accepted the outcome yet (it is retried in the background).
    var deliveryDelayed = false
    /// The links of the problem that ended the sign-in, usable from its page.
    var problemLinks: [Link] = []
    /// The name of the device this sign-in is for (device authorization grant), shown on the final page.
    var deviceName: String? = nil
}

extension SessionSnapshot {
    /// The page of a sign-in in `phase` that shows no step (it has ended, or waits for a pairing's confirmation): such a
    /// page shows no step, no notices and no fields, only how it ended.
    /// - Parameters:
    ///   - csrfToken: The token of the page's forms (the pairing's confirmation, a problem's links).
    ///   - deliveryDelayed: Whether a callback sink has not accepted the outcome yet.
    ///   - problemLinks: The links of the problem that ended the sign-in.
    ///   - deviceName: The name of the device the sign-in is for.
    init(withoutStep phase: SessionPhase, csrfToken: String, deliveryDelayed: Bool, problemLinks: [Link] = [], deviceName: String? = nil) {
        self.init(
            phase: phase,
            step: nil,
            version: 0,
            csrfToken: csrfToken,
            notices: [],
            fieldErrors: [:],
            values: [:],
            deliveryDelayed: deliveryDelayed,
            problemLinks: problemLinks,
            deviceName: deviceName
        )
    }
}
