import HAAPI

/// What a command did to its sign-in (a form post, a link, a poll, a problem's link, starting, a pairing's confirmation,
/// cancelling), as the session decided it: the controller redirects or renders from this, without asking the session
/// again or comparing counters before and after.
struct SignInActionResult: Sendable, Equatable {
    /// Where the sign-in stands now: the next page is its step (`step`), or how it ended.
    let phase: SessionPhase
    /// The version of the step shown now.
    let version: Int
    /// Why the post went no further, when it did not (its message is on the next page).
    let refusal: SignInRefusal?
    /// Whether the signed-in outcome's hand-over to the sinks is still being retried.
    let deliveryDelayed: Bool
    /// The links of the problem that ended the sign-in, usable from its page.
    let problemLinks: [Link]

    /// The result of a command that left `record` as it is now.
    /// - Parameter refusal: Why the post went no further, if it did not.
    init(_ record: SignInRecord, refusal: SignInRefusal? = nil) {
        phase = record.phase
        version = record.version
        self.refusal = refusal
        deliveryDelayed = record.deliveryDelayed
        problemLinks = record.problemLinks
    }

    /// Whether the upstream refused what was posted and kept the step: a failed post, which the failed-post bound counts.
    var isFailedPost: Bool { refusal?.isFailedPost ?? false }

    /// Whether the page of step version `shownVersion` is no longer the current one (the step moved on or the sign-in
    /// ended).
    func hasMovedOn(from shownVersion: Int) -> Bool {
        phase != .step || version != shownVersion
    }
}
