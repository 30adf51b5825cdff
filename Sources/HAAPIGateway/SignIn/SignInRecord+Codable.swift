import Foundation
import HAAPI

/// A record as a document a store keeps (issue #20): the step as its JSON text (``Representation/jsonText``, which a
/// decoder may turn back into a step through an HAAPI client's shared step cache), the problem's links as their JSON,
/// everything else as it is. Decoding a step that no longer decodes is an error (the store then restarts that sign-in
/// with a notice).
extension SignInRecord: Codable {
    private enum CodingKeys: String, CodingKey {
        case csrfToken, flowID, phase, deliveryDelayed, refusedSubmissions, step, version, notices, fieldErrors, values, pollingSince, lastPolledAt
        case problemLinks, device, startLink
    }

    /// The decoder's `userInfo` key of a ``StepDecoder``: how the step's text becomes a step again (an HAAPI client's
    /// ``HAAPIClient/decodeStep(jsonText:)``, with its cache and its `keepsRawJSON`). Absent: parsed here, without the
    /// JSON tree.
    static let stepDecoderKey = CodingUserInfoKey(rawValue: "haapi-gateway.stepDecoder")!

    /// Turns a step's JSON text back into the step.
    typealias StepDecoder = @Sendable (String) throws(HAAPIError) -> Representation

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(csrfToken: try container.decode(String.self, forKey: .csrfToken), flowID: try container.decode(String.self, forKey: .flowID))
        phase = try container.decode(SessionPhase.self, forKey: .phase)
        deliveryDelayed = try container.decode(Bool.self, forKey: .deliveryDelayed)
        refusedSubmissions = try container.decode(Int.self, forKey: .refusedSubmissions)
        if let text = try container.decodeIfPresent(String.self, forKey: .step) {
            do throws(HAAPIError) {
                if let decode = decoder.userInfo[Self.stepDecoderKey] as? StepDecoder {
                    step = try decode(text)
                } else {
                    step = try Representation(json: try JSONValue.parse(Data(text.utf8)), keepingRawJSON: false)
                }
            } catch {
                throw DecodingError.dataCorruptedError(forKey: .step, in: container, debugDescription: "the step does not decode: \(error.message)")
            }
        }
        version = try container.decode(Int.self, forKey: .version)
        notices = try container.decode([PageText].self, forKey: .notices)
        fieldErrors = try container.decode([String: PageText].self, forKey: .fieldErrors)
        values = try container.decode([String: String].self, forKey: .values)
        pollingSince = try container.decodeIfPresent(Date.self, forKey: .pollingSince)
        lastPolledAt = try container.decodeIfPresent(Date.self, forKey: .lastPolledAt)
        problemLinks = try container.decode([JSONValue].self, forKey: .problemLinks).map(Self.link(from:))
        device = try container.decodeIfPresent(SignInDevice.self, forKey: .device)
        startLink = try container.decodeIfPresent(StartLink.self, forKey: .startLink)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(csrfToken, forKey: .csrfToken)
        try container.encode(flowID, forKey: .flowID)
        try container.encode(phase, forKey: .phase)
        try container.encode(deliveryDelayed, forKey: .deliveryDelayed)
        try container.encode(refusedSubmissions, forKey: .refusedSubmissions)
        try container.encodeIfPresent(step?.jsonText, forKey: .step)
        try container.encode(version, forKey: .version)
        try container.encode(notices, forKey: .notices)
        try container.encode(fieldErrors, forKey: .fieldErrors)
        try container.encode(values, forKey: .values)
        try container.encodeIfPresent(pollingSince, forKey: .pollingSince)
        try container.encodeIfPresent(lastPolledAt, forKey: .lastPolledAt)
        try container.encode(problemLinks.map(\.raw), forKey: .problemLinks)
        try container.encodeIfPresent(device, forKey: .device)
        try container.encodeIfPresent(startLink, forKey: .startLink)
    }

    /// A link from its raw JSON (`href` and `rel` required).
    private static func link(from json: JSONValue) throws -> Link {
        guard case .object(let members) = json, case .string(let href)? = members["href"], case .string(let rel)? = members["rel"] else {
            throw DecodingError.dataCorrupted(.init(codingPath: [CodingKeys.problemLinks], debugDescription: "a link without href or rel"))
        }
        var title: String?, type: String?
        if case .string(let text)? = members["title"] { title = text }
        if case .string(let text)? = members["type"] { type = text }
        return Link(href: href, rel: rel, title: title, type: type, raw: json)
    }
}
