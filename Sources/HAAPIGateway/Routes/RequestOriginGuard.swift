import Foundation
import HTTPTypes
import Hummingbird

/// Refuses cross-site state-changing requests: `Sec-Fetch-Site` must be same-origin (or none), and `Origin`, when sent,
/// must be the gateway's own origin.
///
/// Because every page is served with `Referrer-Policy: no-referrer`, browsers send `Origin: null` on the gateway's own
/// form posts (Fetch standard, "serializing a request origin"). `null` is therefore accepted only together with
/// `Sec-Fetch-Site: same-origin`, which pages cannot forge; a bare `null` (sandboxed frames, `data:` documents) is refused.
struct RequestOriginGuard: Sendable {
    /// The configured public origin (`scheme://host[:port]`), when set.
    let publicOrigin: String?
    /// Whether the gateway listens on HTTPS itself (the expected origin without a public one is then `https://host`).
    var listensWithTLS = false

    func check(_ request: Request) throws(GatewayError) {
        let site = request.headers[HTTPField.Name("Sec-Fetch-Site")!]?.lowercased()
        if let site, site != "same-origin", site != "none" {
            throw GatewayError(.forbidden, .crossSiteRefused)
        }
        guard let origin = request.headers[HTTPField.Name("Origin")!] else { return }
        if origin == "null" {
            guard site == "same-origin" else { throw GatewayError(.forbidden, .crossSiteRefused) }
            return
        }
        let expected = publicOrigin ?? request.head.authority.map { "\(listensWithTLS ? "https" : "http")://\($0)" }
        guard let expected, origin.lowercased() == expected.lowercased() else {
            throw GatewayError(.forbidden, .crossSiteRefused)
        }
    }

    static func origin(of url: URL?) -> String? {
        guard let url, let scheme = url.scheme, let host = url.host else { return nil }
        return url.port.map { "\(scheme)://\(host):\($0)" } ?? "\(scheme)://\(host)"
    }
}
