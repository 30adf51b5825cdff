import Foundation

extension HAAPIFlowState {
    /// One cookie the upstream set for the flow (a load balancer's stickiness cookie), as saved: its attributes after
    /// RFC 6265 §5.3 storage, with its expiry as a wall-clock time. The value is a secret: printing shows only the name.
    public struct Cookie: Codable, Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
        /// The cookie name.
        public var name: String
        /// The cookie value. Secret.
        public var value: String
        /// The host (a host-only cookie) or the `Domain` attribute without its leading dot, lower-cased.
        public var domain: String
        /// Whether the cookie goes only to exactly ``domain``.
        public var hostOnly: Bool
        /// The cookie path.
        public var path: String
        /// Whether the cookie goes only over `https`.
        public var secure: Bool
        /// When the cookie expires; nil for a session cookie, kept for the flow's life.
        public var expires: Date?
        /// The order in which the flow stored its cookies (RFC 6265 §5.4 sends older cookies first among equal paths).
        public var order: Int

        /// Creates a saved cookie.
        /// - Parameters:
        ///   - name: The cookie name.
        ///   - value: The cookie value.
        ///   - domain: The host or domain it goes to, lower-cased, without a leading dot.
        ///   - hostOnly: Whether it goes only to exactly `domain`.
        ///   - path: The cookie path.
        ///   - secure: Whether it goes only over `https`.
        ///   - expires: When it expires; nil for a session cookie.
        ///   - order: Its place in the order the flow stored cookies.
        init(name: String, value: String, domain: String, hostOnly: Bool, path: String, secure: Bool, expires: Date?, order: Int) {
            self.name = name
            self.value = value
            self.domain = domain
            self.hostOnly = hostOnly
            self.path = path
            self.secure = secure
            self.expires = expires
            self.order = order
        }

        init(_ cookie: UpstreamCookie) {
            self.init(
                name: cookie.name,
                value: cookie.value,
                domain: cookie.domain,
                hostOnly: cookie.hostOnly,
                path: cookie.path,
                secure: cookie.secure,
                expires: cookie.expires,
                order: cookie.created
            )
        }

        /// The cookie as the flow's jar holds it.
        var upstreamCookie: UpstreamCookie {
            UpstreamCookie(name: name, value: value, domain: domain, hostOnly: hostOnly, path: path, secure: secure, expires: expires, created: order)
        }

        /// The name, domain and path; the value is redacted.
        public var description: String { "HAAPIFlowState.Cookie(name: \(name), domain: \(domain), path: \(path), value: <redacted>)" }

        /// The same as ``description``.
        public var debugDescription: String { description }

        /// Everything but the value, so that `dump` shows no value.
        public var customMirror: Mirror {
            Mirror(
                self,
                children: [
                    "name": name, "domain": domain, "hostOnly": hostOnly, "path": path, "secure": secure, "expires": expires as Any, "order": order,
                ],
                displayStyle: .struct
            )
        }
    }
}
