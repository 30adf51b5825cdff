/// Single sign-in mode (`haapi-gateway login`): only the ticket's URL starts a sign-in, after the person confirms the code.
public struct PairingSettings: Sendable {
    /// The one sign-in.
    public var ticket: PairingTicket
    /// The name of the host the terminal runs on, shown beside the code.
    public var hostName: String

    /// Creates pairing settings.
    /// - Parameters:
    ///   - ticket: The single-use URL and code.
    ///   - hostName: The terminal's host name.
    public init(ticket: PairingTicket, hostName: String) {
        self.ticket = ticket
        self.hostName = hostName
    }
}
