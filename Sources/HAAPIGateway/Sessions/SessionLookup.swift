/// What ``SessionStore/checkOut(id:for:)`` found.
package enum SessionLookup<Session: Sendable>: Sendable {
    /// The live session, checked out to this request.
    case found(SessionCheckout<Session>)
    /// No live session with that id (never stored, removed, expired).
    case absent
    /// Another request holds the sign-in (a ``SessionUse/polling`` checkout, or an ``SessionUse/acting`` one that
    /// waited its time): nothing was checked out.
    case busy
    /// A live session that cannot be continued: its document does not open or decode (a removed key, an older format).
    /// The sign-in starts again with a notice.
    case unreadable
}
