/// What a request will do with the session it checks out (``SessionStore/checkOut(id:for:)``).
enum SessionUse: Sendable, Equatable {
    /// Show it (a page, an image): no upstream call. It may still change what the next page says once (its notices).
    case reading
    /// Act on it: submit a form, follow a link, cancel. A shared store waits until no other request holds the sign-in.
    case acting
    /// Poll its upstream (a waiting page's refresh): when another request holds the sign-in it is not polled again.
    case polling
}
