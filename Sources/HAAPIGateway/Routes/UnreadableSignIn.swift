/// The session of a request's cookie is stored but cannot be continued (``SessionLookup/unreadable``): the request is
/// sent to `/` (``ErrorPageMiddleware``), where the sign-in starts again with a notice.
struct UnreadableSignIn: Error, Sendable {}
