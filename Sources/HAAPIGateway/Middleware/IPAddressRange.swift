#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address, or a CIDR block of them (`10.0.0.0/8`, `fd00::/8`, `127.0.0.1`): what
/// `server.trustedProxies` lists.
public struct IPAddressRange: Sendable, Equatable, CustomStringConvertible {
    private let network: [UInt8]
    private let prefixLength: Int
    /// As configured.
    public let description: String

    /// Parses `text`; nil when it is neither an address nor an address with a prefix length in range.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let bytes = Self.bytes(of: String(parts[0])) else { return nil }
        let prefixLength: Int
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...(bytes.count * 8)).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = bytes.count * 8
        }
        self.network = bytes
        self.prefixLength = prefixLength
        self.description = text
    }

    /// Whether `address` (a literal IPv4 or IPv6 address) is in the range; an IPv4-mapped IPv6 address counts as IPv4.
    public func contains(_ address: String) -> Bool {
        guard var bytes = Self.bytes(of: address) else { return false }
        if bytes.count == 16, network.count == 4, bytes[0..<10].allSatisfy({ $0 == 0 }), bytes[10] == 0xFF, bytes[11] == 0xFF {
            bytes = Array(bytes[12...])
        }
        guard bytes.count == network.count else { return false }
        var remaining = prefixLength
        for (mine, theirs) in zip(network, bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xFF : ~(0xFF >> UInt8(remaining))
            if mine & mask != theirs & mask { return false }
            remaining -= 8
        }
        return true
    }

    /// The address's bytes (4 or 16), or nil when it is not a literal address.
    static func bytes(of text: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            return withUnsafeBytes(of: &v4) { Array($0) }
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, text, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) }
        }
        return nil
    }
}

extension Sequence<IPAddressRange> {
    /// Whether one of the ranges holds `address`.
    func anyContains(_ address: String) -> Bool {
        contains { $0.contains(address) }
    }
}
