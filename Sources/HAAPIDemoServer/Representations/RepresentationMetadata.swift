/// The `metadata` member: the server template that produced a representation.
struct RepresentationMetadata: Encodable, Sendable {
    var viewName: String?
    var templateArea: String?

    init(viewName: String?, templateArea: String? = nil) {
        self.viewName = viewName
        self.templateArea = templateArea
    }
}
