/// The per-key nonces of ``CurityWireTests/dpopNoncesArePerFlowSoConcurrentFlowsNeverUseEachOthers()``.
actor NonceBook {
    private var nonces: [String: String] = [:]
    private var counter = 0

    func nonce(for key: String) -> String {
        if let nonce = nonces[key] { return nonce }
        return rotate(for: key)
    }

    func rotate(for key: String) -> String {
        counter += 1
        let nonce = "nonce-\(counter)"
        nonces[key] = nonce
        return nonce
    }
}
