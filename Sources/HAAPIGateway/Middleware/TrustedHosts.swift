import Foundation

/// The host names the gateway answers for (``TrustedHostMiddleware``): with `server.publicURL`, its host; without,
/// `localhost` and IP addresses (a DNS rebinding needs a name), and the configured listening host when it is a name.
enum TrustedHosts {
    /// Whether `authority` (`host[:port]`) names this gateway.
    static func accepts(_ authority: String, publicURL: URL?, listeningHost: String) -> Bool {
        guard let host = Self.host(of: authority) else { return false }
        if let publicHost = publicURL?.host?.lowercased() { return host == publicHost }
        if host == "localhost" || isIPAddress(host) { return true }
        return host == listeningHost.lowercased()
    }

    /// The host of an authority, lowercased, without brackets or port; nil when it is not one. An ASCII authority (any
    /// a browser sends) is read byte by byte; beyond ASCII it is read by `Character`, as before.
    static func host(of authority: String) -> String? {
        var authority = authority
        guard authority.withUTF8({ $0.allSatisfy { $0 < 0x80 } }) else { return characterHost(of: authority) }
        return authority.withUTF8(asciiHost(of:))
    }

    private static func asciiHost(of bytes: UnsafeBufferPointer<UInt8>) -> String? {
        let isDigit = { (byte: UInt8) in byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        if bytes.first == UInt8(ascii: "[") {
            guard let end = bytes.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            let rest = bytes[(end + 1)...]
            guard rest.isEmpty || (rest.first == UInt8(ascii: ":") && rest.count > 1 && rest.dropFirst().allSatisfy(isDigit)) else { return nil }
            return lowercased(bytes[1..<end])
        }
        let colon = bytes.firstIndex(of: UInt8(ascii: ":"))
        if let colon {
            let port = bytes[(colon + 1)...]
            guard !port.isEmpty, port.allSatisfy(isDigit) else { return nil }
        }
        let name = bytes[..<(colon ?? bytes.endIndex)]
        let isNameByte = { (byte: UInt8) in
            isDigit(byte) || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "-")
        }
        guard !name.isEmpty, name.allSatisfy(isNameByte) else { return nil }
        return lowercased(name)
    }

    private static func lowercased(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(unsafeUninitializedCapacity: bytes.count) { lowered in
            for (offset, byte) in bytes.enumerated() { lowered[offset] = byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte }
            return bytes.count
        }
    }

    private static func characterHost(of authority: String) -> String? {
        let lowered = authority.lowercased()
        if lowered.hasPrefix("[") {
            guard let end = lowered.firstIndex(of: "]") else { return nil }
            let rest = lowered[lowered.index(after: end)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1) else { return nil }
            return String(lowered[lowered.index(after: lowered.startIndex)..<end])
        }
        let parts = lowered.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let name = parts.first, !name.isEmpty else { return nil }
        if parts.count == 2 { guard !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber) else { return nil } }
        guard name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else { return nil }
        return String(name)
    }

    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }
}
