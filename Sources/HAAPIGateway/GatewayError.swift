import HTTPTypes
import Hummingbird

/// A failure the gateway shows to the person signing in: a stable code, an HTTP status and a secret-free message.
///
/// Thrown by routes and rendered as an HTML page by ``ErrorPageMiddleware``.
public struct GatewayError: Error, Sendable, HTTPResponseError, CustomStringConvertible {
    /// Stable, machine-readable codes.
    public enum Code: String, Sendable {
        /// The session cookie is missing, unknown or expired.
        case sessionExpired = "session_expired"
        /// The CSRF token, `Origin` or `Sec-Fetch-Site` check failed.
        case forbidden = "forbidden"
        /// The request does not name an action or link of the current step.
        case badRequest = "bad_request"
        /// The upstream HAAPI server could not be reached or failed.
        case upstreamUnavailable = "upstream_unavailable"
        /// The gateway has not reached its upstream yet (it keeps trying): no sign-in can start (HTTP 503).
        case upstreamNotReady = "upstream_not_ready"
        /// The session store (a database) cannot read or save sessions now; the sign-in is kept (HTTP 503).
        case storeUnavailable = "store_unavailable"
        /// The session cap is reached: a new sign-in waits (sessions under way go on).
        case overloaded = "overloaded"
        /// Too many failed posts from this session or client address within the window.
        case tooManyAttempts = "too_many_attempts"
        /// The upstream ended the sign-in with a problem.
        case signInFailed = "sign_in_failed"
        /// The request names a host that is not the gateway's (HTTP 421 Misdirected Request).
        case misdirected = "misdirected"
        /// The configuration cannot be served (templates that do not parse, unsupported upstream).
        case configuration = "configuration"
        /// A file or directory the gateway needs is missing or cannot be read (templates, certificates, keys).
        case unreadableInput = "unreadable_input"
        /// Anything else.
        case internalError = "internal_error"
    }

    /// The stable code.
    public let code: Code
    /// A message safe to log (never a secret); for operators, in English.
    public let message: String
    /// The text the error page shows, from the message catalogue in the person's language.
    public let text: MessageKey?
    /// The HTTP status of the error page.
    public let status: HTTPResponse.Status
    /// When set, the page is sent with `Retry-After` (seconds).
    public private(set) var retryAfterSeconds: Int?
    /// When set, the page is sent with this `Set-Cookie` value (a sign-in made before the failure, for "Try again").
    public private(set) var setCookie: String?

    /// Creates an error for operators (configuration, internal failures); its page shows a generic text for the code.
    public init(_ code: Code, _ message: String, status: HTTPResponse.Status? = nil) {
        self.code = code
        self.message = message
        self.text = nil
        self.status = status ?? Self.defaultStatus(for: code)
    }

    /// Creates an error whose page shows `text` in the person's language.
    public init(_ code: Code, _ text: MessageKey, status: HTTPResponse.Status? = nil) {
        self.code = code
        self.message = text.rawValue
        self.text = text
        self.status = status ?? Self.defaultStatus(for: code)
    }

    /// The same error, sent with `Retry-After: seconds`.
    public func retrying(after seconds: Int) -> GatewayError {
        var error = self
        error.retryAfterSeconds = max(1, seconds)
        return error
    }

    /// The same error, its page setting the cookie `value` (a `Set-Cookie` value).
    public func settingCookie(_ value: String) -> GatewayError {
        var error = self
        error.setCookie = value
        return error
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// A plain-text fallback; ``ErrorPageMiddleware`` renders the HTML page before this is used.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: message)))
    }

    static func defaultStatus(for code: Code) -> HTTPResponse.Status {
        switch code {
        case .sessionExpired: .ok
        case .forbidden: .forbidden
        case .badRequest: .badRequest
        case .misdirected: .init(code: 421, reasonPhrase: "Misdirected Request")
        case .upstreamUnavailable: .badGateway
        case .upstreamNotReady: .serviceUnavailable
        case .storeUnavailable: .serviceUnavailable
        case .overloaded: .serviceUnavailable
        case .tooManyAttempts: .tooManyRequests
        case .signInFailed: .ok
        case .configuration, .unreadableInput, .internalError: .internalServerError
        }
    }
}
