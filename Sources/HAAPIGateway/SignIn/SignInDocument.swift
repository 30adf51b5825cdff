import Foundation
import HAAPI

/// A sign-in as a store that keeps documents holds it: its record and its flow's state (a secret: the DPoP key, the
/// HAAPI token; the store seals it), with the format it was written in. A document of a format this gateway does not
/// read, or one that does not decode, is not continued: that sign-in starts again with a notice.
///
/// Format 2 (written since issue #43) keeps the step once: when the flow's current step is the record's step (the step
/// its page shows), the flow's state is written without it and `flowStepIsRecordStep` says so; the flow is restored
/// with the record's. Format 1 wrote it twice, and is still read.
package struct SignInDocument: Codable, Sendable {
    /// The format this gateway writes.
    static let currentFormat = 2
    /// The formats this gateway reads.
    static let readableFormats: ClosedRange<Int> = 1...currentFormat
    /// The bytes reserved for a document's text: more than a step's page and a flow's key and token take, so that the
    /// text is rarely copied as it grows.
    static let expectedSize = 8192

    private enum CodingKeys: String, CodingKey {
        case format, record, flow, flowStepIsRecordStep
    }

    /// The format the document was written in.
    var format = Self.currentFormat
    /// What the sign-in is.
    var record: SignInRecord
    /// Its HAAPI flow's state; without its current step when that is the record's (``flowStepIsRecordStep``).
    var flow: HAAPIFlowState
    /// Whether the flow's current step is the record's step, kept once, in the record: the flow is restored with
    /// ``HAAPIClient/restoreFlow(_:currentStep:)`` and ``flowStep``.
    var flowStepIsRecordStep: Bool

    /// The flow's current step when the document keeps it in the record, else nil (the flow's state holds its own).
    var flowStep: Representation? { flowStepIsRecordStep ? record.step : nil }

    package init(record: SignInRecord, flow: HAAPIFlowState, flowStepIsRecordStep: Bool = false) {
        self.record = record
        self.flow = flow
        self.flowStepIsRecordStep = flowStepIsRecordStep
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decode(Int.self, forKey: .format)
        guard Self.readableFormats.contains(format) else {
            throw DecodingError.dataCorruptedError(forKey: .format, in: container, debugDescription: "document format \(format) is not read here")
        }
        record = try container.decode(SignInRecord.self, forKey: .record)
        flow = try container.decode(HAAPIFlowState.self, forKey: .flow)
        flowStepIsRecordStep = try container.decodeIfPresent(Bool.self, forKey: .flowStepIsRecordStep) ?? false
        guard !flowStepIsRecordStep || (record.step != nil && flow.currentStep == nil) else {
            throw DecodingError.dataCorruptedError(
                forKey: .flowStepIsRecordStep,
                in: container,
                debugDescription: "the flow's step is said to be the record's, and the record has none or the flow its own"
            )
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(format, forKey: .format)
        try container.encode(record, forKey: .record)
        try container.encode(flow, forKey: .flow)
        if flowStepIsRecordStep { try container.encode(true, forKey: .flowStepIsRecordStep) }
    }

    /// The document's bytes: JSON with the keys and value shapes of ``encode(to:)``, written member by member in a fixed
    /// order (``SignInRecord/writeJSON(to:)``, `HAAPIFlowState.writeJSON(to:)`; `JSONEncoder` was 4.5 % of the gateway's
    /// CPU on a PostgreSQL store's steps), so that an unchanged sign-in encodes to the same bytes (a check-in writes only
    /// when they differ) and ``decode(_:decodingSteps:)`` reads it as it reads what `JSONEncoder` wrote.
    /// - Throws: `EncodingError.invalidValue` for a value JSON cannot hold (a number or date that is not finite).
    package func encoded() throws(EncodingError) -> [UInt8] {
        var writer = JSONWriter(reservingCapacity: Self.expectedSize)
        writer.beginObject()
        writer.member("format", format)
        writer.key("record")
        try record.writeJSON(to: &writer)
        writer.key("flow")
        try flow.writeJSON(to: &writer)
        if flowStepIsRecordStep { writer.member("flowStepIsRecordStep", true) }
        writer.endObject()
        return writer.bytes
    }

    /// The document in `bytes`.
    /// - Parameter decodeStep: How the record's step text becomes a step (``SignInRecord/stepDecoderKey``); by default
    ///   parsed without a cache or the JSON tree.
    /// - Throws: A decoding error, also for a format this gateway does not read (``readableFormats``).
    static func decode(_ bytes: [UInt8], decodingSteps decodeStep: SignInRecord.StepDecoder? = nil) throws -> SignInDocument {
        let decoder = JSONDecoder()
        if let decodeStep { decoder.userInfo[SignInRecord.stepDecoderKey] = decodeStep }
        return try decoder.decode(SignInDocument.self, from: Data(bytes))
    }
}
