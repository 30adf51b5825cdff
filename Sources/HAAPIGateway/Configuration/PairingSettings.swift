/// Single sign-in mode (`haapi-gateway login`): only the ticket's URL starts a sign-in, after the person confirms the code.
public struct PairingSettings: Sendable {
    /// The one sign-in.
    public var ticket: PairingTicket
    /// The name of the host the terminal runs on, shown beside the code.
    public var hostName: String
    /// Called when the page saying how the sign-in ended has been made for the person's browser (the answer to the
    /// post that ended it, or a later visit): `login` stops its gateway only after that, so that a phone on a slow
    /// network still gets its last page.
    public var finalPageServed: @Sendable () -> Void

    /// Creates pairing settings.
    /// - Parameters:
    ///   - ticket: The single-use URL and code.
    ///   - hostName: The terminal's host name.
    ///   - finalPageServed: Called when the page saying how the sign-in ended has been made.
    public init(ticket: PairingTicket, hostName: String, finalPageServed: @escaping @Sendable () -> Void = {}) {
        self.ticket = ticket
        self.hostName = hostName
        self.finalPageServed = finalPageServed
    }
}
