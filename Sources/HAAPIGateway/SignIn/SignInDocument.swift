import Foundation
import HAAPI

/// A sign-in as a store that keeps documents holds it: its record and its flow's state (a secret: the DPoP key, the
/// HAAPI token; the store seals it), with the format it was written in. A document of another format, or one that does
/// not decode, is not continued: that sign-in starts again with a notice.
package struct SignInDocument: Codable, Sendable {
    /// The format this gateway writes and reads.
    static let currentFormat = 1

    /// The format the document was written in.
    var format = Self.currentFormat
    /// What the sign-in is.
    var record: SignInRecord
    /// Its HAAPI flow's state.
    var flow: HAAPIFlowState

    package init(record: SignInRecord, flow: HAAPIFlowState) {
        self.record = record
        self.flow = flow
    }

    /// The document's bytes: JSON with sorted keys, so that an unchanged sign-in encodes to the same bytes (a check-in
    /// writes only when they differ).
    package func encoded() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Array(try encoder.encode(self))
    }

    /// The document in `bytes`.
    /// - Parameter decodeStep: How the record's step text becomes a step (``SignInRecord/stepDecoderKey``); by default
    ///   parsed without a cache or the JSON tree.
    /// - Throws: A decoding error, also for a format other than ``currentFormat``.
    static func decode(_ bytes: [UInt8], decodingSteps decodeStep: SignInRecord.StepDecoder? = nil) throws -> SignInDocument {
        let decoder = JSONDecoder()
        if let decodeStep { decoder.userInfo[SignInRecord.stepDecoderKey] = decodeStep }
        let document = try decoder.decode(SignInDocument.self, from: Data(bytes))
        guard document.format == currentFormat else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "document format \(document.format), not \(currentFormat)"))
        }
        return document
    }
}
