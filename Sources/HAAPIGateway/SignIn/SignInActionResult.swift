/// What a browser's action (a form post, a link, a poll, a problem's link) did to its sign-in, as the session decided
/// it: the controller answers from this, without asking the session again or comparing counters before and after.
struct SignInActionResult: Sendable, Equatable {
    /// Where the sign-in stands now.
    let phase: SessionPhase
    /// Whether the upstream refused what was posted and kept the step (an input problem): a failed post, which the
    /// failed-post bound counts.
    let refused: Bool
    /// Whether the signed-in outcome's hand-over to the sinks is still being retried.
    let deliveryDelayed: Bool
}
