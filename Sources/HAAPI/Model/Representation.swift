/// A HAAPI step (`application/vnd.auth+json`), typed, with its raw JSON kept.
public struct Representation: Sendable, Hashable {
    /// The `type` member.
    public var type: RepresentationType { storage.type }
    /// A top-level `title`, when the step has one (steps of types this library does not know may carry one).
    public var title: String? { storage.title }
    /// The kind of step, derived from `type` and the actions.
    public var stepKind: StepKind { storage.stepKind }
    /// The actions.
    public var actions: [Action] { storage.actions }
    /// The links.
    public var links: [Link] { storage.links }
    /// The messages.
    public var messages: [Message] { storage.messages }
    /// The metadata, if sent.
    public var metadata: Metadata? { storage.metadata }
    /// The `properties` object as received.
    public var properties: JSONValue? { storage.properties }
    /// Polling properties, for polling steps.
    public var polling: PollingProperties? { storage.polling }
    /// The authorization response, for `oauth-authorization-response` steps.
    public var authorizationResponse: AuthorizationResponse? { storage.authorizationResponse }
    /// The whole representation as received, for template overrides (`null` when decoded without keeping it).
    public var raw: JSONValue { storage.raw }

    /// Every member, in one allocation that copies share (a step is kept by a flow, a sign-in and the client's step
    /// cache; held inline it took 313 bytes in each).
    private let storage: RepresentationStorage

    /// Decodes a representation; unknown members never fail.
    /// - Parameters:
    ///   - json: The representation object.
    ///   - keepingRawJSON: Whether this step and its actions, fields and links keep their JSON as `raw`; without it a
    ///     step holds much less memory (see ``HAAPIClientConfiguration/keepsRawJSON``).
    /// - Throws: ``HAAPIError/Code/malformedResponse`` when `type` is missing or a member has the wrong shape.
    public init(json: JSONValue, keepingRawJSON: Bool = true) throws(HAAPIError) {
        guard case .object = json else { throw .malformed("the representation is not a JSON object") }
        guard let typeName = json["type"]?.stringValue else { throw .malformed("the representation has no type") }
        let type = RepresentationType(rawValue: typeName)
        let actions = try Action.list(json["actions"], keepingRawJSON: keepingRawJSON)
        storage = RepresentationStorage(
            type: type,
            title: json["title"]?.stringValue,
            stepKind: Representation.classify(type: type, actions: actions),
            actions: actions,
            links: try Representation.links(json["links"], keepingRawJSON: keepingRawJSON),
            messages: try Representation.messages(json["messages"]),
            metadata: Representation.metadata(json["metadata"]),
            properties: json["properties"],
            polling: type == .pollingStep ? PollingProperties(json: json["properties"]) : nil,
            authorizationResponse: type == .oauthAuthorizationResponse ? AuthorizationResponse(json: json["properties"]) : nil,
            raw: keepingRawJSON ? json : .null
        )
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
        var raw = other.raw
        if case .object(var members) = other.raw {
            members["messages"] = .array(messages.map(\.json))
            if let actions { members["actions"] = .array(actions.map(\.raw)) }
            if let links { members["links"] = .array(links.map(\.raw)) }
            raw = .object(members)
        }
        storage = RepresentationStorage(
            type: other.type,
            title: other.title,
            stepKind: actions.map { Representation.classify(type: other.type, actions: $0) } ?? other.stepKind,
            actions: actions ?? other.actions,
            links: links ?? other.links,
            messages: messages,
            metadata: other.metadata,
            properties: other.properties,
            polling: other.polling,
            authorizationResponse: other.authorizationResponse,
            raw: raw
        )
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
            links.append(
                Link(
                    href: href,
                    rel: element["rel"]?.stringValue ?? "",
                    title: element["title"]?.stringValue,
                    type: element["type"]?.stringValue,
                    raw: keepingRawJSON ? element : .null
                )
            )
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
