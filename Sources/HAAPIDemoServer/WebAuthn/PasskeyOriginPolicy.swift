import Foundation

/// Which browser origins may answer a WebAuthn ceremony of the demo (WebAuthn Level 2 §7.1 step 9, §7.2 step 13):
/// the origin's host must be the relying-party id or a subdomain of it, and the origin must be listed exactly, or be
/// `http(s)://localhost:<any port>` when that is allowed and the relying-party id is `localhost`.
struct PasskeyOriginPolicy: Sendable {
    let relyingPartyID: String
    let allowedOrigins: Set<String>
    let acceptsLocalhostOrigins: Bool

    init(relyingPartyID: String, allowedOrigins: [String], acceptsLocalhostOrigins: Bool) {
        self.relyingPartyID = relyingPartyID.lowercased()
        self.allowedOrigins = Set(allowedOrigins.compactMap(Self.normalized))
        self.acceptsLocalhostOrigins = acceptsLocalhostOrigins
    }

    init(configuration: DemoServerConfiguration) {
        self.init(
            relyingPartyID: configuration.passkeyRelyingPartyID,
            allowedOrigins: configuration.passkeyAllowedOrigins,
            acceptsLocalhostOrigins: configuration.passkeyAcceptsLocalhostOrigins
        )
    }

    /// Whether a `clientDataJSON.origin` is acceptable.
    func allows(_ origin: String) -> Bool {
        guard let normalized = Self.normalized(origin), let host = URLComponents(string: normalized)?.host else { return false }
        guard host == relyingPartyID || host.hasSuffix("." + relyingPartyID) else { return false }
        if allowedOrigins.contains(normalized) { return true }
        return acceptsLocalhostOrigins && relyingPartyID == "localhost" && host == "localhost"
    }

    /// `scheme://host[:port]` in lowercase for an http(s) origin without path, query, fragment or user; else nil.
    static func normalized(_ origin: String) -> String? {
        guard let components = URLComponents(string: origin), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host?.lowercased(), !host.isEmpty,
            components.path.isEmpty || components.path == "/", components.query == nil, components.fragment == nil,
            components.user == nil, components.password == nil
        else { return nil }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "")
    }
}
