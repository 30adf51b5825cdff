import HAAPI
import Hummingbird
import Logging

/// What the controllers work with: the gateway's long-lived parts, made once by ``Gateway`` and handed to each
/// controller, so that none reaches through another for them.
struct GatewayServices: Sendable {
    /// The configuration and renderer in effect; a request reads them once, through ``settings(for:)``.
    let live: LiveSettings
    /// The server's settings as the gateway started with them. Those read from here (the listener's scheme, the public
    /// origin, the body limit) wait for a restart; one a reload applies at once is read from ``settings(for:)``.
    let server: ServerSettings
    /// The upstream's client, once reached.
    let upstream: UpstreamConnection
    let store: any SessionStore<SignInSession>
    /// The bound on failed posts per session and per client address.
    let limiter: FailedPostLimiter
    /// The bound on sign-ins each client address starts.
    let newSessions: any NewSessionBudget
    let dispatcher: CallbackDispatcher
    let drain: GatewayDrain
    let metrics: GatewayMetrics
    let originGuard: RequestOriginGuard
    let logger: Logger

    /// How the sign-in pages behave (browser, kiosk or `login`'s pairing), as the gateway started (neither
    /// `kiosk.enabled` nor the pairing is reloaded).
    let signInMode: SignInMode
    /// What marks a sign-in's cookie with its trace, when tracing is on (``SignInTraceMark``).
    let traceMarks: SignInTraceMark?

    /// The settings of this request: taken at its first call and the same for the rest of the request.
    func settings(for context: GatewayRequestContext) -> LiveSettings.Snapshot {
        context.settings.snapshot(from: live)
    }

    /// The gateway's origin as this browser (or device) reaches it: `server.publicURL` when configured, else `http://` (or
    /// `https://` when the gateway listens on HTTPS itself) and the request's Host (only a host name or address and port;
    /// anything else gives none).
    func origin(of request: Request) -> String? {
        if let url = server.publicBaseURL, let origin = RequestOriginGuard.origin(of: url) { return origin }
        guard let authority = request.head.authority, !authority.isEmpty, authority.utf8.count <= 255,
            authority.utf8.allSatisfy(Self.isAuthorityByte)
        else { return nil }
        return (server.tls == nil ? "http://" : "https://") + authority
    }

    /// An ASCII letter or digit, or one of `.-:[]`: what a host name, an IP address and a port are written with.
    private static func isAuthorityByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"): true
        default: false
        }
    }

    /// A `Set-Cookie` value of the gateway's: `HttpOnly`, with `SameSite` as given, and `Secure` when browsers reach the
    /// gateway over HTTPS.
    func cookie(_ name: String, _ value: String, path: String = "/", sameSite: String, maxAge: Int? = nil) -> String {
        var attributes = ["\(name)=\(value)", "Path=\(path)", "HttpOnly", "SameSite=\(sameSite)"]
        if server.servesTLS { attributes.append("Secure") }
        if let maxAge { attributes.append("Max-Age=\(maxAge)") }
        return attributes.joined(separator: "; ")
    }

    /// A new flow of the upstream's client; "sign-in is unavailable, try again" (503) while the gateway has not reached it.
    /// - Parameters:
    ///   - scopes: Fewer scopes than the configured ones for this sign-in (a device asked for them).
    ///   - link: A signed start link whose authorize parameters replace the configured ones.
    func newFlow(scopes: [String]? = nil, link: StartLink? = nil) throws(GatewayError) -> HAAPIFlow {
        guard let client = upstream.client else { throw GatewayError(.upstreamNotReady, .signInUnavailable).retrying(after: 5) }
        return client.makeFlow(scopes: scopes, parameters: link.map { $0.applied(to: client.configuration.authorizationParameters) })
    }
}
