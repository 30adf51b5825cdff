import Testing

/// The storage contract (``StorageContract``) run against the memory storage (``MemoryContractBackend``).
@Suite("The storage contract: memory")
struct MemoryStorageContractTests {
    @Test("every check of the storage contract", arguments: StorageContract.checks)
    func contract(_ check: StorageContractCheck) async throws { try await check.run(MemoryContractBackend()) }
}
