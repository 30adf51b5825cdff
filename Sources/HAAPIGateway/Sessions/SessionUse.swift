/// What a request will do with the session it checks out (``SessionStore/checkOut(id:for:)``).
package enum SessionUse: Sendable, Equatable {
    /// Show it (a page, an image): no upstream call. It may still change what the next page says once (its notices).
    case reading
    /// Show it to a browser that a post has just redirected here, which named the version that post saved
    /// (``SessionCheckout/storedVersion``): a store that kept that version decoded may show it without asking the
    /// database again. The person sees at least what their own post did (read your writes); what another request did
    /// since (another tab, on another replica) shows from the next page, and a post from this one is then stale, as
    /// always. Any other version, or none kept, reads as ``reading``.
    case readingAfterPost(savedVersion: Int64)
    /// Act on it: submit a form, follow a link, cancel. A shared store waits until no other request holds the sign-in.
    case acting
    /// Poll its upstream (a waiting page's refresh): when another request holds the sign-in it is not polled again.
    case polling
}
