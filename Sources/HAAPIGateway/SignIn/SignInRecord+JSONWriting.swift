import Foundation
import HAAPI

/// A record written as JSON without `JSONEncoder` (``SignInDocument/encoded()``, on every save of a changed sign-in): the
/// members and value shapes of its `Codable` conformance (``encode(to:)``, and the synthesized ones of its phase, texts,
/// device and start link), so that `JSONDecoder` reads it back as it reads what `JSONEncoder` wrote; the members in a
/// fixed order and a dictionary's sorted, so that an unchanged record gives the same bytes.
extension SignInRecord {
    /// Writes the record, as a value.
    /// - Parameter writer: Where it is written.
    /// - Throws: `EncodingError.invalidValue` for a date that is not a finite time or a problem link holding a number
    ///   that is not finite (`JSONEncoder` refuses both).
    func writeJSON(to writer: inout JSONWriter) throws(EncodingError) {
        writer.beginObject()
        writer.member("csrfToken", csrfToken)
        writer.member("flowID", flowID)
        writer.key("phase")
        Self.write(phase, to: &writer)
        writer.member("deliveryDelayed", deliveryDelayed)
        writer.member("refusedSubmissions", refusedSubmissions)
        writer.member("step", step?.jsonText)
        writer.member("version", version)
        writer.key("notices")
        writer.beginArray()
        for notice in notices { Self.write(notice, to: &writer) }
        writer.endArray()
        writer.key("fieldErrors")
        writer.beginObject()
        for (name, error) in fieldErrors.sorted(by: { $0.key < $1.key }) {
            writer.key(name)
            Self.write(error, to: &writer)
        }
        writer.endObject()
        writer.member("values", values)
        try writer.member("pollingSince", pollingSince)
        try writer.member("lastPolledAt", lastPolledAt)
        writer.key("problemLinks")
        writer.beginArray()
        for link in problemLinks { try writer.value(link.raw) }
        writer.endArray()
        if let device {
            writer.key("device")
            writer.beginObject()
            writer.member("reference", device.reference)
            writer.member("clientID", device.clientID)
            writer.member("clientName", device.clientName)
            writer.endObject()
        }
        if let startLink {
            writer.key("startLink")
            writer.beginObject()
            writer.member("reference", startLink.reference)
            writer.member("parameters", startLink.parameters)
            writer.endObject()
        }
        writer.endObject()
    }

    /// A phase as its synthesized `Encodable` writes it: an object of one member named after the case, holding the
    /// associated values by label (`_0` unlabelled), `{}` for a case without any.
    private static func write(_ phase: SessionPhase, to writer: inout JSONWriter) {
        writer.beginObject()
        switch phase {
        case .confirming(let code, let hostName):
            writer.key("confirming")
            writer.beginObject()
            writer.member("code", code)
            writer.member("hostName", hostName)
            writer.endObject()
        case .step: writeCase("step", to: &writer)
        case .signedIn: writeCase("signedIn", to: &writer)
        case .failed(let text):
            writer.key("failed")
            writer.beginObject()
            writer.key("_0")
            write(text, to: &writer)
            writer.endObject()
        case .cancelled: writeCase("cancelled", to: &writer)
        }
        writer.endObject()
    }

    /// A page text as its synthesized `Encodable` writes it.
    private static func write(_ text: PageText, to writer: inout JSONWriter) {
        writer.beginObject()
        switch text {
        case .gateway(let key, let arguments):
            writer.key("gateway")
            writer.beginObject()
            writer.member("_0", key.rawValue)
            writer.member("arguments", arguments)
            writer.endObject()
        case .upstream(let message):
            writer.key("upstream")
            writer.beginObject()
            writer.member("_0", message)
            writer.endObject()
        }
        writer.endObject()
    }

    /// A case without associated values: its name and `{}`.
    private static func writeCase(_ name: String, to writer: inout JSONWriter) {
        writer.key(name)
        writer.beginObject()
        writer.endObject()
    }
}
