import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The address a phone on the same network can reach this host on.
public enum NetworkAddress {
    /// The first IPv4 address of an interface that is up and not loopback, if any.
    public static func primaryIPv4() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var entry: UnsafeMutablePointer<ifaddrs>? = first
        while let current = entry {
            defer { entry = current.pointee.ifa_next }
            let flags = Int32(current.pointee.ifa_flags)
            guard let address = current.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET),
                flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            if getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 {
                return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return nil
    }

    /// `url` with a wildcard host (`0.0.0.0`, `::`) replaced by the primary address, so the printed link works elsewhere.
    public static func reachable(_ url: URL) -> URL {
        guard let host = url.host, ["0.0.0.0", "::", "[::]"].contains(host), let address = primaryIPv4(),
            var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { return url }
        components.host = address
        return components.url ?? url
    }
}
