/// One line of the callback spool (JSON Lines): a delivery added before its first attempt, or one that is done
/// (delivered or given up) for its sink.
struct SpoolRecord: Codable, Sendable {
    /// A delivery not done yet.
    var add: SpooledDelivery?
    /// The delivery id of one that is done.
    var doneID: String?
    /// The sink it is done for.
    var doneSink: String?

    static func added(_ entry: SpooledDelivery) -> SpoolRecord { SpoolRecord(add: entry) }

    static func done(id: String, sink: String) -> SpoolRecord { SpoolRecord(doneID: id, doneSink: sink) }
}
