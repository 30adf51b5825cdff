/// Whether the database can serve sessions now, for `/readyz`.
public enum StorageReadiness: Sendable, Equatable {
    /// The tables are prepared and a cheap query answered in time.
    case ready
    /// Not now, and why (safe to show: no password, no value).
    case notReady(String)
}
