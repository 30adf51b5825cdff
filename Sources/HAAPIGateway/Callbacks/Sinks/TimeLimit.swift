import Synchronization

/// Whether an attempt's time limit was reached (set by its watchdog, read by the attempt).
final class TimeLimit: Sendable {
    private let state = Atomic<Bool>(false)

    func reached() { state.store(true, ordering: .relaxed) }

    var wasReached: Bool { state.load(ordering: .relaxed) }
}
