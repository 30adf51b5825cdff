/// A HAAPI step (`application/vnd.auth+json`), built by the flows and encoded as the wire format.
struct Representation: Encodable, Sendable {
    var type: String
    var metadata: RepresentationMetadata?
    var properties: [String: String]?
    var actions: [Action]?
    var links: [Link]?
    var messages: [Message]?
}

/// The `metadata` member: the server template that produced a representation.
struct RepresentationMetadata: Encodable, Sendable {
    var viewName: String?
    var templateArea: String?

    init(viewName: String?, templateArea: String? = nil) {
        self.viewName = viewName
        self.templateArea = templateArea
    }
}
