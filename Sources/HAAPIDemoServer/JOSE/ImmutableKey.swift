/// Wraps a swift-crypto key (an immutable value type whose module does not declare it `Sendable`)
/// so it can be shared between concurrent request handlers.
struct ImmutableKey<Key>: @unchecked Sendable {
    let value: Key

    init(_ value: Key) {
        self.value = value
    }
}
