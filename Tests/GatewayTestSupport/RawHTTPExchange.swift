import Foundation

/// One HTTP/1.1 exchange written byte for byte on a loopback TCP connection: for requests no HTTP client library sends
/// (two `Host` headers, a foreign `Host`, a path with `//`).
enum RawHTTPExchange {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// Sends `request` (with `Connection: close`) to 127.0.0.1:`port`, from the loopback address `source` when given (all
    /// of 127/8 is loopback on Linux: another client address), and returns the status code and the whole answer.
    static func send(_ request: String, port: Int, from source: String? = nil) async throws -> (status: Int, text: String) {
        try await Task.detached {
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard descriptor >= 0 else { throw Failure(description: "socket failed") }
            defer { close(descriptor) }
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            if let source {
                var local = sockaddr_in()
                local.sin_family = sa_family_t(AF_INET)
                local.sin_addr.s_addr = inet_addr(source)
                let bound = withUnsafePointer(to: &local) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
                }
                guard bound == 0 else { throw Failure(description: "bind to \(source) failed") }
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw Failure(description: "connect to port \(port) failed") }
            let bytes = Array(request.utf8)
            guard bytes.withUnsafeBytes({ write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else { throw Failure(description: "write failed") }
            var answer: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                answer += buffer[0..<count]
            }
            let text = String(decoding: answer, as: UTF8.self)
            let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
            return (status, text)
        }.value
    }
}
