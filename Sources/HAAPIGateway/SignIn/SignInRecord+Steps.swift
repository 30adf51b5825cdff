import Foundation
import HAAPI

/// What the upstream's steps and the gateway's refusals do to a sign-in's record, decided here so that the session only
/// applies them: which step a post acts on, whether an answer is a new page, and what a refused post leaves on the next.
extension SignInRecord {
    /// The step shown, while the sign-in shows one (it has not ended and is not waiting for a pairing's confirmation).
    var shownStep: Representation? { phase == .step ? step : nil }

    /// Whether the page of step version `shownVersion` is no longer the current one (the step moved on or the sign-in
    /// ended).
    func hasMovedOn(from shownVersion: Int) -> Bool {
        phase != .step || version != shownVersion
    }

    /// Notes the upstream's answer `next` for the time a polling step has been pending: kept from `now` while the
    /// answers are pending polling steps, cleared by any other.
    mutating func notePolling(of next: Representation, at now: Date) {
        if next.stepKind == .polling, next.polling?.status == .pending {
            if pollingSince == nil { pollingSince = now }
        } else {
            pollingSince = nil
        }
    }

    /// Shows the upstream's next step. A pending polling step that shows what the page shows already keeps its version:
    /// the page stays (its script sees no change) and a form on it stays current. Anything else is a new page.
    /// - Returns: Whether it is a new page (the next version).
    mutating func show(_ next: Representation) -> Bool {
        let samePage = step.map { Self.isSamePendingPage($0, next) } ?? false
        step = next
        if samePage { return false }
        version += 1
        return true
    }

    /// Keeps the step after the upstream refused what was posted: `step` (the shown one with the problem's links added),
    /// with what `refusal` says on the next page.
    mutating func keep(_ step: Representation?, refusedBy refusal: SignInRefusal) {
        self.step = step
        refuse(refusal)
    }

    /// Puts what `refusal` says on the next page (once): its notices, and for missing fields or the upstream's refusal
    /// the field errors and what the person typed; the upstream's refusal is counted (``refusedSubmissions``).
    mutating func refuse(_ refusal: SignInRefusal) {
        notices = refusal.notices
        switch refusal {
        case .stalePage, .invalidPasskey:
            break
        case .missingFields(let missing, let typed):
            fieldErrors = missing
            values = typed
        case .byUpstream(_, let errors, let typed):
            refusedSubmissions += 1
            fieldErrors.merge(errors) { _, new in new }
            values = typed
        }
    }

    /// Whether two steps are the same pending polling page: the same messages, links and actions as a person sees them.
    static func isSamePendingPage(_ shown: Representation, _ next: Representation) -> Bool {
        guard shown.stepKind == .polling, next.stepKind == .polling, shown.polling?.status == .pending, next.polling?.status == .pending else {
            return false
        }
        return shown.messages.map(\.text) == next.messages.map(\.text)
            && shown.links.map { [$0.href, $0.rel, $0.title ?? ""] } == next.links.map { [$0.href, $0.rel, $0.title ?? ""] }
            && shown.actions.map { [$0.kind.rawValue, $0.title ?? ""] } == next.actions.map { [$0.kind.rawValue, $0.title ?? ""] }
    }
}
