import Foundation

extension DemoServerConfiguration {
    /// Whether `id` can be the passkeys' WebAuthn relying-party id: a host name (ASCII letters, digits, hyphens, dots,
    /// no empty label), never an IP address, which WebAuthn refuses as one.
    public static func isRelyingPartyID(_ id: String) -> Bool {
        let labels = id.split(separator: ".", omittingEmptySubsequences: false)
        return !labels.contains(where: \.isEmpty) && !labels.allSatisfy({ Int($0) != nil })
            && id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") })
    }

    /// Makes the passkeys belong to the host of `publicURL` and its origin, when that host is a name; with an IP address
    /// the defaults stay (`localhost`, on any port).
    public mutating func usePasskeys(for publicURL: URL) {
        guard let scheme = publicURL.scheme?.lowercased(), let host = publicURL.host?.lowercased(), Self.isRelyingPartyID(host) else { return }
        passkeyRelyingPartyID = host
        passkeyAllowedOrigins = ["\(scheme)://\(host)" + (publicURL.port.map { ":\($0)" } ?? "")]
    }
}
