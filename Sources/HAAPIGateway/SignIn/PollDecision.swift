import Foundation
import HAAPI

/// What a poll of a sign-in's pending polling step does (the page's refresh or its script's status request), decided
/// from its record, the polling settings and the time: the session applies it.
enum PollDecision {
    /// Nothing to poll: no polling step of that version is shown, or it has no poll form.
    case nothing
    /// The step has been pending past `polling.maximumWaitSeconds`, or its own `maxWaitTime` when that is shorter: the
    /// sign-in ends with a clear message.
    case timedOut
    /// The upstream was polled for this sign-in less than the step's interval ago (``PollCadence``): the step stays as
    /// it stands. Paced per sign-in, on every replica (the time is kept with it).
    case tooSoon
    /// Poll the upstream with the step's poll action.
    case poll(Action)

    /// What a poll made from the page of step version `version` of `record` does at `now`.
    init(record: SignInRecord, version: Int, polling: PollingSettings, now: Date) {
        guard record.phase == .step, let step = record.step, step.stepKind == .polling, version == record.version else {
            self = .nothing
            return
        }
        let limit = min(polling.maximumWaitSeconds, step.polling?.maximumWaitSeconds ?? .max)
        if let since = record.pollingSince, now.timeIntervalSince(since) > Double(limit) {
            self = .timedOut
            return
        }
        guard let action = step.actions.first(where: { $0.kind == .poll && $0.form != nil }) else {
            self = .nothing
            return
        }
        let gap = PollCadence.leastGap(seconds: PollCadence.seconds(for: step, defaultSeconds: polling.defaultIntervalSeconds))
        if let last = record.lastPolledAt, now >= last, now.timeIntervalSince(last) < gap {
            self = .tooSoon
            return
        }
        self = .poll(action)
    }
}
