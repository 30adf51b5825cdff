import Foundation
import HAAPI

/// How often a pending polling step is checked: the page's refresh and the pace the gateway keeps with the upstream.
enum PollCadence {
    /// How often a pending polling step is checked, in whole seconds: the server's `interval` (milliseconds as a string
    /// [UIKIT]), else BankID's published 1 s cadence for a BankID step, else the configured default (notes 3.7). A
    /// server interval is rounded up to whole seconds (the page's refresh has seconds), at least 1 and at most 60: a
    /// sub-second value is never read as seconds.
    static func seconds(for step: Representation, defaultSeconds: Int) -> Int {
        if let milliseconds = step.polling?.intervalMilliseconds {
            return max(1, min(60, (milliseconds + 999) / 1000))
        }
        if isBankID(step) { return 1 }
        return max(1, min(60, defaultSeconds))
    }

    /// The least time between two upstream polls of one sign-in checked every `seconds`: a quarter less, for the page's
    /// own timer and the network's jitter, so that a page checking at its interval is never held back, while a script
    /// or a person asking faster (fifty status requests at once) reaches the upstream once per interval.
    static func leastGap(seconds: Int) -> TimeInterval {
        Double(seconds) * 0.75
    }

    /// Whether a step is BankID's: a `bankid` client operation among its actions, or a BankID view name.
    static func isBankID(_ step: Representation) -> Bool {
        if step.metadata?.viewName?.lowercased().contains("bankid") == true { return true }
        func isBankID(_ action: Action) -> Bool {
            action.clientOperation?.name == ClientOperation.Name.bankID || (action.selectorOptions ?? []).contains(where: isBankID)
        }
        return step.actions.contains(where: isBankID)
    }
}
