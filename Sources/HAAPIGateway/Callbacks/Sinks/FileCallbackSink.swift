/// `file:PATH`: writes the outcome as JSON with mode 0600 (temporary file, then an atomic rename).
struct FileCallbackSink: CallbackSink {
    let path: String

    var name: String { "file:\(path)" }

    func deliver(_ delivery: CallbackDelivery) async throws {
        try AtomicFile.write(delivery.document, to: path)
    }
}
