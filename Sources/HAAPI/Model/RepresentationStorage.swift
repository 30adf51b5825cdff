/// The members of a ``Representation``, immutable, in one allocation that the representation's copies share.
final class RepresentationStorage: Sendable, Hashable {
    let type: RepresentationType
    let title: String?
    let stepKind: StepKind
    let actions: [Action]
    let links: [Link]
    let messages: [Message]
    let metadata: Metadata?
    let properties: JSONValue?
    let polling: PollingProperties?
    let authorizationResponse: AuthorizationResponse?
    let raw: JSONValue

    init(
        type: RepresentationType,
        title: String?,
        stepKind: StepKind,
        actions: [Action],
        links: [Link],
        messages: [Message],
        metadata: Metadata?,
        properties: JSONValue?,
        polling: PollingProperties?,
        authorizationResponse: AuthorizationResponse?,
        raw: JSONValue
    ) {
        self.type = type
        self.title = title
        self.stepKind = stepKind
        self.actions = actions
        self.links = links
        self.messages = messages
        self.metadata = metadata
        self.properties = properties
        self.polling = polling
        self.authorizationResponse = authorizationResponse
        self.raw = raw
    }

    static func == (lhs: RepresentationStorage, rhs: RepresentationStorage) -> Bool {
        lhs === rhs
            || (lhs.type == rhs.type && lhs.title == rhs.title && lhs.stepKind == rhs.stepKind && lhs.actions == rhs.actions && lhs.links == rhs.links
                && lhs.messages == rhs.messages && lhs.metadata == rhs.metadata && lhs.properties == rhs.properties && lhs.polling == rhs.polling
                && lhs.authorizationResponse == rhs.authorizationResponse && lhs.raw == rhs.raw)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(type)
        hasher.combine(title)
        hasher.combine(stepKind)
        hasher.combine(actions)
        hasher.combine(links)
        hasher.combine(messages)
        hasher.combine(metadata)
        hasher.combine(properties)
        hasher.combine(polling)
        hasher.combine(authorizationResponse)
        hasher.combine(raw)
    }
}
