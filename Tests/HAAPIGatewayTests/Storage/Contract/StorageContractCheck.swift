import Testing

/// One check of the storage contract: what it shows, and the check itself (a ``StorageContract`` function), run against
/// a backend.
struct StorageContractCheck: Sendable, CustomTestStringConvertible {
    let name: String
    let run: @Sendable (any StorageContractBackend) async throws -> Void

    init(_ name: String, _ run: @escaping @Sendable (any StorageContractBackend) async throws -> Void) {
        self.name = name
        self.run = run
    }

    var testDescription: String { name }
}
