/// A HAAPI step (`application/vnd.auth+json`), built by the flows and encoded as the wire format.
struct Representation: Encodable, Sendable {
    var type: String
    var metadata: RepresentationMetadata?
    var properties: [String: String]?
    var actions: [Action]?
    var links: [Link]?
    var messages: [Message]?
}
