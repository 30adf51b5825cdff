import Foundation

extension DemoServerConfiguration {
    /// The demo server a gateway embeds when its configuration names no upstream (`serve`, `login`, `doctor`): on a free
    /// loopback port, with DPoP nonces or every strict check as the gateway's `demo` settings ask, and passkeys for the
    /// host browsers reach the gateway at (``usePasskeys(for:)``), when the gateway has a public URL.
    /// - Parameters:
    ///   - requireDPoPNonce: Whether DPoP nonces are issued and required.
    ///   - strict: Whether every strict check is on (``makeStrict()``).
    ///   - publicURL: The gateway's public URL, if it has one.
    public static func embedded(requireDPoPNonce: Bool, strict: Bool, publicURL: URL?) -> DemoServerConfiguration {
        var configuration = DemoServerConfiguration(port: 0, requireDPoPNonce: requireDPoPNonce)
        if strict { configuration.makeStrict() }
        if let publicURL { configuration.usePasskeys(for: publicURL) }
        return configuration
    }
}
