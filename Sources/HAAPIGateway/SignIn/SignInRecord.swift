import Foundation
import HAAPI

/// What one person's sign-in *is*, apart from what the gateway does with it (``SignInSession`` drives the flow, renders
/// and delivers): its ids, where it stands, the step shown and its version, what the next page says once, and who
/// started it. Wall-clock times only, so that a record can be kept outside this process (issue #20) together with the
/// flow's own state (`HAAPIFlowState`).
package struct SignInRecord: Sendable {
    /// The token every form of this sign-in carries (compared in constant time).
    var csrfToken: String
    /// Ties the log lines of one sign-in together, and is the `signInId` of its outcome, so that an application's record
    /// of a sign-in and the gateway's log lines join. 128 random bits: an application may key on it, and at 48 bits two of
    /// a few million sign-ins would share one by chance. It names nothing and grants nothing.
    var flowID: String
    var phase: SessionPhase = .step
    /// Whether a sink did not accept the outcome at once (it is being retried in the background).
    var deliveryDelayed = false
    /// How many submissions the upstream answered with wrong credentials or invalid input. The failed-post bound
    /// (``FailedPostLimiter``) counts them from each action's result (``SignInActionResult/isFailedPost``); this count stays
    /// in the stored document, which replicas of an earlier release read during a rolling upgrade.
    var refusedSubmissions = 0
    /// The step shown, and its version (a post names the version it was made for).
    var step: Representation?
    var version = 0
    /// Messages, field errors and typed values for the next rendering only.
    var notices: [PageText] = []
    var fieldErrors: [String: PageText] = [:]
    var values: [String: String] = [:]
    /// Since when a polling step has been pending (wall clock).
    var pollingSince: Date?
    /// When the upstream was last polled for this sign-in (wall clock): polls are paced by it (``PollCadence``).
    var lastPolledAt: Date?
    /// The links of the problem that ended the flow (e.g. `restart`): they stay usable on the page (notes 3.9).
    var problemLinks: [Link] = []
    /// The device this sign-in is for (device authorization grant).
    var device: SignInDevice?
    /// The signed start link this sign-in was started by, if any.
    var startLink: StartLink?

    /// A new sign-in's record, with fresh random ids unless given (a stored record's).
    init(csrfToken: String = SecureToken.make(), flowID: String = SecureToken.make(byteCount: 16)) {
        self.csrfToken = csrfToken
        self.flowID = flowID
    }

    /// A new sign-in's record.
    /// - Parameters:
    ///   - pairing: In `login` mode, the code and host the person must confirm before the flow starts.
    ///   - device: The device this sign-in is for.
    ///   - startLink: The signed start link this sign-in was started by.
    init(pairing: (code: String, hostName: String)?, device: DeviceSignIn?, startLink: StartLink?) {
        self.init()
        self.device = device.map { SignInDevice(reference: $0.reference, clientID: $0.client.id, clientName: $0.client.name) }
        self.startLink = startLink
        if let pairing { phase = .confirming(code: pairing.code, hostName: pairing.hostName) }
    }

    /// The reference every outcome of this sign-in carries.
    var signIn: SignInReference {
        let starter =
            device.map { SignInStarter(kind: "device", client: $0.clientID, reference: $0.reference) }
            ?? startLink.map { SignInStarter(kind: "link", reference: $0.reference) }
        return SignInReference(id: flowID, starter: starter)
    }
}
