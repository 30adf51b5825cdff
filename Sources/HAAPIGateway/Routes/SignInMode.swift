/// How the sign-in pages behave, fixed when the gateway starts (`kiosk.enabled` waits for a restart, and `login`'s
/// pairing is never reloaded): the sign-in controller asks this value instead of reading the configuration.
enum SignInMode: Sendable {
    /// Anyone's own browser (the default): any visit starts a sign-in; once signed in, the session moves to a fresh
    /// cookie and the browser goes on to the start page or `completion.redirectURL`.
    case browser
    /// A shared screen (`kiosk.enabled`): a finished or cancelled sign-in is destroyed and its final page shown once, to
    /// the browser that finished it; a sign-in left alone is ended; the start page always begins a new one.
    case kiosk
    /// `haapi-gateway login`: only the single-use link starts the one sign-in, and the page saying how it ended comes
    /// with the post that ended it (the command stops once it is made: ``PairingSettings/finalPageServed``).
    case pairing(PairingSettings)

    /// The mode of `configuration`: pairing when `login` set it (whatever `kiosk` says), else kiosk when enabled.
    init(_ configuration: GatewayConfiguration) {
        if let pairing = configuration.pairing {
            self = .pairing(pairing)
        } else if configuration.kiosk.enabled {
            self = .kiosk
        } else {
            self = .browser
        }
    }

    /// Whether a visit without a sign-in starts one (not in `login` mode: only its link does).
    var startsOnVisit: Bool {
        if case .pairing = self { return false }
        return true
    }

    /// Whether a sign-in is ended once left alone for `kiosk.idleResetSeconds`, and a visit to an ended or expired one
    /// starts the next person's (kiosk mode).
    var isSharedScreen: Bool {
        if case .kiosk = self { return true }
        return false
    }

    /// A page was made for the browser of a sign-in at `phase`: in `login` mode, a page saying how it ended lets the
    /// command stop. The page asking to confirm the code is not one: a sign-in that has not started has not ended.
    func pageServed(at phase: SessionPhase) {
        if case .pairing(let pairing) = self, phase.hasEnded { pairing.finalPageServed() }
    }
}
