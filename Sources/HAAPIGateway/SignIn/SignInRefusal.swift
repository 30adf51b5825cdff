/// Why a browser's post went no further, with what its next page says (once): the session applies it to its record
/// (``SignInRecord/refuse(_:)``) and answers it in the post's result (``SignInActionResult/refusal``).
enum SignInRefusal: Sendable, Equatable {
    /// The post was made from a page that is no longer current (the step moved on, or another request of the sign-in
    /// was in flight): the page is shown as it stands, nothing was sent upstream.
    case stalePage
    /// A passkey form's answer (its JSON context field) is not a bounded JSON object; nothing was sent upstream.
    case invalidPasskey
    /// Required fields were left empty (what the page says of each, by field), with what the person typed to fill the
    /// page again (never a password); nothing was sent upstream.
    case missingFields([String: PageText], typed: [String: String])
    /// The upstream refused what was posted (wrong credentials, invalid input): the step stays with the problem's
    /// notices and field errors, and what the person typed.
    case byUpstream(notices: [PageText], fieldErrors: [String: PageText], typed: [String: String])

    /// What the next page says of the refusal.
    var notices: [PageText] {
        switch self {
        case .stalePage: [.gateway(.stalePage)]
        case .invalidPasskey: [.gateway(.passkeyInvalid)]
        case .missingFields: [.gateway(.fillRequired)]
        case .byUpstream(let notices, _, _): notices
        }
    }

    /// Whether it is a failed post, which the failed-post bound counts (``FailedPostLimiter``): only the upstream's
    /// refusal; the gateway's own checks cost the upstream nothing.
    var isFailedPost: Bool {
        if case .byUpstream = self { true } else { false }
    }
}
