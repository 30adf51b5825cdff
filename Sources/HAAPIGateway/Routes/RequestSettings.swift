import Synchronization

/// The settings one request works with: taken from ``LiveSettings`` when the request first needs them and kept until it
/// ends, so that every part of it (its middlewares, its controller, its page) sees one configuration even when a reload
/// replaces it meanwhile.
final class RequestSettings: Sendable {
    private let taken = Mutex<LiveSettings.Snapshot?>(nil)

    /// The request's settings, taken from `live` the first time.
    func snapshot(from live: LiveSettings) -> LiveSettings.Snapshot {
        taken.withLock { taken in
            if let taken { return taken }
            let snapshot = live.snapshot
            taken = snapshot
            return snapshot
        }
    }
}
