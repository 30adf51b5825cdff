/// The one error type of the HAAPI client library.
///
/// Every failure (transport, timeout, an unexpected upstream answer, a rejected DPoP proof, a
/// refused href, an invalid call) is a `HAAPIError` with a stable ``Code`` that callers can switch on,
/// and a ``message`` written for an operator. Neither the message nor ``description`` ever contains
/// a secret: no token, code, client secret, DPoP proof, key or response body.
///
/// HAAPI *problems* (invalid input, incorrect credentials, ...) and OAuth error responses are not
/// errors: they are values returned to the caller, to be shown to the user.
public struct HAAPIError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable error code. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible, CaseIterable {
        private let name: String
        private init(_ name: String) { self.name = name }
        /// The code name.
        public var description: String { name }

        /// Every code of this version of the library, in the order they are declared (a new code goes here too).
        public static let allCases: [Code] = [
            .invalidConfiguration, .transport, .timeout, .upstreamStatus, .malformedResponse, .dpopRejected, .offOriginHref, .flowExpired,
            .invalidParameters, .authorizationResponseMismatch, .tooManyRedirects, .crypto, .connectionRefused, .nameResolution, .tls,
            .subjectMismatch, .noDiscoveryDocument, .issuerMismatch, .invalidFlowState,
        ]

        /// The configuration is invalid; ``HAAPIError/problems`` lists every problem found.
        public static let invalidConfiguration = Code("invalidConfiguration")
        /// The HTTP request could not be sent or its response not read (a connection reset, say; refused connections,
        /// names that do not resolve and TLS failures have codes of their own).
        public static let transport = Code("transport")
        /// The upstream did not answer within the configured timeout.
        public static let timeout = Code("timeout")
        /// The upstream answered with an HTTP status the protocol step does not allow.
        public static let upstreamStatus = Code("upstreamStatus")
        /// The response body or content type is not what the protocol step requires.
        public static let malformedResponse = Code("malformedResponse")
        /// The upstream rejected the DPoP proof or the DPoP-bound token, also after the allowed retry.
        public static let dpopRejected = Code("dpopRejected")
        /// An href or link points outside the configured upstream origin (SSRF guard), or uses a scheme that is never fetched.
        public static let offOriginHref = Code("offOriginHref")
        /// The flow can no longer continue (its tokens or state expired, or it already completed).
        public static let flowExpired = Code("flowExpired")
        /// The caller passed parameters the action does not accept, or an action that is not a form. (Whether an action
        /// belongs to the step on screen is the caller's to check: the gateway resolves every posted action in the
        /// session's current step.)
        public static let invalidParameters = Code("invalidParameters")
        /// The authorization response does not match this flow (state or issuer mismatch).
        public static let authorizationResponseMismatch = Code("authorizationResponseMismatch")
        /// Too many automatic steps were followed without user input.
        public static let tooManyRedirects = Code("tooManyRedirects")
        /// A key or certificate could not be loaded or used.
        public static let crypto = Code("crypto")
        /// Nothing listens at the upstream's address (the connection was refused).
        public static let connectionRefused = Code("connectionRefused")
        /// The upstream's host name could not be resolved (DNS).
        public static let nameResolution = Code("nameResolution")
        /// The TLS handshake with the upstream failed (certificate not trusted, wrong name, not TLS at all).
        public static let tls = Code("tls")
        /// An answer names another person than the validated ID token (a userinfo `sub` that differs from the token's,
        /// OpenID Connect Core 1.0 §5.3.2): its claims are not used.
        public static let subjectMismatch = Code("subjectMismatch")
        /// There is no OpenID Connect discovery document where the configuration points: its issuer's
        /// `/.well-known/openid-configuration` answered 404 (or 410), or with something that is not a JSON object. The
        /// message says where Curity publishes it ([OIDCMETA]), and where one was found when it was.
        public static let noDiscoveryDocument = Code("noDiscoveryDocument")
        /// The discovery document names another issuer than the configured one (OpenID Connect Discovery 1.0 §4.3: the
        /// issuer must be identical to the URL the document was found under); the message names both.
        public static let issuerMismatch = Code("issuerMismatch")
        /// A saved ``HAAPIFlowState`` cannot be restored: its format version is unknown, it was saved by a client of
        /// another upstream or client id, or a part of it (the DPoP key, the step) does not load.
        public static let invalidFlowState = Code("invalidFlowState")
    }

    /// The stable code of this error.
    public let code: Code
    /// A message for operators and logs. Never contains secrets.
    public let message: String
    /// The upstream HTTP status, when the error comes from an HTTP answer.
    public let status: Int?
    /// The upstream content type, when the error comes from an HTTP answer.
    public let contentType: String?
    /// Every problem found, for ``Code/invalidConfiguration`` and ``Code/invalidParameters``.
    public let problems: [String]
    /// The token endpoint's OAuth error, when it refused a request the client could not do without (the HAAPI token):
    /// its `error` and `error_description` as sent (upstream text: show it escaped, never as markup). Not in
    /// ``description``.
    public internal(set) var oauthError: OAuthErrorResponse? = nil
    /// With ``Code/noDiscoveryDocument``: the issuer a document found at Curity's default place on the same origin
    /// names, the value the base URL should have had. With ``Code/issuerMismatch``: the issuer the document names.
    public internal(set) var foundIssuer: String? = nil

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable error code.
    ///   - message: A message for operators; must not contain secrets.
    ///   - status: The upstream HTTP status, if any.
    ///   - contentType: The upstream content type, if any.
    ///   - problems: Individual problems, for errors that collect several.
    public init(_ code: Code, _ message: String, status: Int? = nil, contentType: String? = nil, problems: [String] = []) {
        self.code = code
        self.message = message
        self.status = status
        self.contentType = contentType
        self.problems = problems
    }

    /// Code, message, status, content type and problems; never secrets.
    public var description: String {
        var text = "HAAPIError.\(code): \(message)"
        if let status { text += " (status \(status))" }
        if let contentType { text += " (content type \(contentType))" }
        for problem in problems { text += "\n  - \(problem)" }
        return text
    }
}
