/// Where a long-lived component (a store, a limiter, the callback dispatcher) reads the settings it runs with: the
/// configuration in effect (``LiveSettings``), read once at the start of each operation or background round.
///
/// So a request and a background round each see one configuration, and a reload reaches every component at its next
/// operation by replacing that configuration alone: nothing is pushed to the components, and none can be left out.
package struct SettingsSource<Value: Sendable>: Sendable {
    private let read: @Sendable () -> Value

    /// Settings read by `read` at each use.
    init(_ read: @escaping @Sendable () -> Value) {
        self.read = read
    }

    /// Settings that never change (tests, and what is made outside a running gateway).
    package static func fixed(_ value: Value) -> SettingsSource<Value> {
        SettingsSource { value }
    }

    /// The settings in effect now.
    package var current: Value { read() }
}
