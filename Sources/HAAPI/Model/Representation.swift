/// A HAAPI step (`application/vnd.auth+json`), typed, with its raw JSON kept.
public struct Representation: Sendable, Hashable {
    /// The `type` member.
    public let type: RepresentationType
    /// The kind of step, derived from `type` and the actions.
    /// A top-level `title`, when the step has one (steps of types this library does not know may carry one).
    public let title: String?
    public let stepKind: StepKind
    /// The actions.
    public let actions: [Action]
    /// The links.
    public let links: [Link]
    /// The messages.
    public let messages: [Message]
    /// The metadata, if sent.
    public let metadata: Metadata?
    /// The `properties` object as received.
    public let properties: JSONValue?
    /// Polling properties, for polling steps.
    public let polling: PollingProperties?
    /// The authorization response, for `oauth-authorization-response` steps.
    public let authorizationResponse: AuthorizationResponse?
    /// The whole representation as received, for template overrides (`null` when decoded without keeping it).
    public let raw: JSONValue

    /// Decodes a representation; unknown members never fail.
    /// - Parameters:
    ///   - json: The representation object.
    ///   - keepingRawJSON: Whether this step and its actions, fields and links keep their JSON as `raw`; without it a
    ///     step holds much less memory (see ``HAAPIClientConfiguration/keepsRawJSON``).
    /// - Throws: ``HAAPIError/Code/malformedResponse`` when `type` is missing or a member has the wrong shape.
    public init(json: JSONValue, keepingRawJSON: Bool = true) throws(HAAPIError) {
        guard case .object = json else { throw .malformed("the representation is not a JSON object") }
        guard let type = json["type"]?.stringValue else { throw .malformed("the representation has no type") }
        self.type = RepresentationType(rawValue: type)
        self.title = json["title"]?.stringValue
        self.actions = try Action.list(json["actions"], keepingRawJSON: keepingRawJSON)
        self.links = try Representation.links(json["links"], keepingRawJSON: keepingRawJSON)
        self.messages = try Representation.messages(json["messages"])
        self.metadata = Representation.metadata(json["metadata"])
        self.properties = json["properties"]
        self.polling = self.type == .pollingStep ? PollingProperties(json: json["properties"]) : nil
        self.authorizationResponse = self.type == .oauthAuthorizationResponse ? AuthorizationResponse(json: json["properties"]) : nil
        self.raw = keepingRawJSON ? json : .null
        self.stepKind = Representation.classify(type: self.type, actions: self.actions)
    }

    /// The step a `continue-same-step` leads to: this step with `actions` (the submitted form's `continueActions`) and
    /// `newMessages` before this step's messages (notes 3.2, [UIKIT]). The raw JSON, when kept, says the same.
    public func continuing(with actions: [Action], newMessages: [Message]) -> Representation {
        Representation(copying: self, messages: newMessages + messages, actions: actions)
    }

    /// This step with `links` added after its own (a problem's links, kept usable while the step stays); links it has
    /// already (same `href` and `rel`) are not added again.
    public func adding(links newLinks: [Link]) -> Representation {
        let added = newLinks.filter { link in !links.contains { $0.href == link.href && $0.rel == link.rel } }
        guard !added.isEmpty else { return self }
        return Representation(copying: self, messages: messages, links: links + added)
    }

    private init(copying other: Representation, messages: [Message], actions: [Action]? = nil, links: [Link]? = nil) {
        self.type = other.type
        self.title = other.title
        self.stepKind = actions.map { Representation.classify(type: other.type, actions: $0) } ?? other.stepKind
        self.actions = actions ?? other.actions
        self.links = links ?? other.links
        self.messages = messages
        self.metadata = other.metadata
        self.properties = other.properties
        self.polling = other.polling
        self.authorizationResponse = other.authorizationResponse
        if case .object(var members) = other.raw {
            members["messages"] = .array(messages.map(\.json))
            if let actions { members["actions"] = .array(actions.map(\.raw)) }
            if let links { members["links"] = .array(links.map(\.raw)) }
            self.raw = .object(members)
        } else {
            self.raw = other.raw
        }
    }

    /// Classifies a step as Curity's SDK step factories do.
    /// - Parameters:
    ///   - type: The representation type.
    ///   - actions: The decoded actions.
    public static func classify(type: RepresentationType, actions: [Action]) -> StepKind {
        switch type {
        case .redirectionStep: return .redirection
        case .pollingStep: return .polling
        case .continueSameStep: return .continueSame
        case .oauthAuthorizationResponse: return .oauthAuthorizationResponse
        case .userConsentStep: return .userConsent
        default: break
        }
        if let first = actions.first, first.selectorOptions != nil, first.kind == .authenticatorSelector {
            return .authenticatorSelector
        }
        if let operation = actions.lazy.compactMap(\.clientOperation).first {
            switch operation.name {
            case ClientOperation.Name.externalBrowserFlow: return .externalBrowserClientOperation
            case ClientOperation.Name.bankID: return .bankIDClientOperation
            case ClientOperation.Name.encap: return .encapClientOperation
            case ClientOperation.Name.webAuthnRegistration: return .webAuthnRegistrationClientOperation
            case ClientOperation.Name.webAuthnAuthentication: return .webAuthnAuthenticationClientOperation
            default: return .genericClientOperation
            }
        }
        if !actions.isEmpty, actions.allSatisfy({ $0.form != nil || $0.selectorOptions != nil }) {
            return .interactiveForm
        }
        return .generic
    }

    static func links(_ json: JSONValue?, keepingRawJSON: Bool) throws(HAAPIError) -> [Link] {
        guard let json, json != .null else { return [] }
        guard let elements = json.arrayValue else { throw .malformed("links are not a JSON array") }
        var links: [Link] = []
        for element in elements {
            guard let href = element["href"]?.stringValue else { throw .malformed("a link has no href") }
            links.append(Link(href: href, rel: element["rel"]?.stringValue ?? "", title: element["title"]?.stringValue, type: element["type"]?.stringValue,
                    raw: keepingRawJSON ? element : .null))
        }
        return links
    }

    static func messages(_ json: JSONValue?) throws(HAAPIError) -> [Message] {
        guard let json, json != .null else { return [] }
        guard let elements = json.arrayValue else { throw .malformed("messages are not a JSON array") }
        var messages: [Message] = []
        for element in elements {
            guard let text = element["text"]?.scalarText else { throw .malformed("a message has no text") }
            let classes = element["classList"]?.arrayValue?.compactMap(\.stringValue) ?? []
            messages.append(Message(text: text, classList: classes, properties: element["properties"]))
        }
        return messages
    }

    static func metadata(_ json: JSONValue?) -> Metadata? {
        guard let json, case .object = json else { return nil }
        return Metadata(viewName: json["viewName"]?.stringValue, templateArea: json["templateArea"]?.stringValue)
    }
}
