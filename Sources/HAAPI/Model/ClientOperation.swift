/// The model of a `client-operation` action: something the client itself must do
/// (open an external browser, start BankID, run a WebAuthn ceremony...).
public struct ClientOperation: Sendable, Hashable {
    /// The operation name, e.g. `external-browser-flow`, `bankid`, `webauthn-registration`.
    public let name: String
    /// The arguments as received.
    public let arguments: JSONValue?
    /// Actions to continue with once the operation succeeded.
    public let continueActions: [Action]
    /// Actions to offer when the operation cannot be done.
    public let errorActions: [Action]

    /// The well-known operation names.
    public enum Name {
        /// `external-browser-flow`
        public static let externalBrowserFlow = "external-browser-flow"
        /// `bankid`
        public static let bankID = "bankid"
        /// `encap`
        public static let encap = "encap"
        /// `webauthn-registration`
        public static let webAuthnRegistration = "webauthn-registration"
        /// `webauthn-authentication`
        public static let webAuthnAuthentication = "webauthn-authentication"
    }

    /// Decodes a client operation model.
    /// - Parameters:
    ///   - json: The model object.
    ///   - keepingRawJSON: Whether its actions keep their JSON as `raw`.
    /// - Throws: ``HAAPIError/Code/malformedResponse`` without `name`.
    public init(json: JSONValue, keepingRawJSON: Bool = true) throws(HAAPIError) {
        guard let name = json["name"]?.stringValue else { throw .malformed("a client operation has no name") }
        self.name = name
        self.arguments = json["arguments"]
        self.continueActions = try Action.list(json["continueActions"], keepingRawJSON: keepingRawJSON)
        self.errorActions = try Action.list(json["errorActions"], keepingRawJSON: keepingRawJSON)
    }
}
