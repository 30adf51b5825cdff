import Foundation

/// A loopback TCP connection driven byte by byte, from a chosen source address (all of 127/8 is loopback on Linux):
/// for clients no HTTP library imitates (one that sends a byte a second, one that only holds a connection open).
final class RawConnection: @unchecked Sendable {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The socket's descriptor (-1 once closed).
    private(set) var descriptor: Int32

    /// Connects to `host`:`port` from `source` (any port), blocking until connected or failing.
    init(to port: Int, host: String = "127.0.0.1", from source: String = "127.0.0.1") throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure(description: "socket failed: errno \(errno)") }
        var local = Self.address(source, port: 0)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let error = errno
            close()
            throw Failure(description: "bind to \(source) failed: errno \(error)")
        }
        var remote = Self.address(host, port: port)
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            close()
            throw Failure(description: "connect to \(host):\(port) from \(source) failed: errno \(error)")
        }
    }

    private static func address(_ host: String, port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        return address
    }

    /// Sends `bytes` (false when the connection is gone); never raises SIGPIPE.
    @discardableResult
    func send(_ bytes: [UInt8]) -> Bool {
        guard descriptor >= 0 else { return false }
        return bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } == bytes.count
    }

    /// Sends `text` as UTF-8.
    @discardableResult
    func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    /// Whether the peer has closed the connection (end of file or a reset), waiting at most `timeout` for something to
    /// arrive; bytes that arrive are appended to ``received``.
    func isClosedByPeer(waiting timeout: Duration = .zero) -> Bool {
        guard descriptor >= 0 else { return true }
        let milliseconds = Int32(timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, milliseconds) > 0 else { return false }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0 {
                received += buffer[0..<count]
                continue
            }
            if count == 0 { return true }
            return errno != EAGAIN && errno != EWOULDBLOCK
        }
    }

    /// Whether the peer closes the connection within `wait` (what it sends meanwhile is read), checked every 10 ms
    /// without holding a thread. The tests' cooperative pool has two threads on this machine, and a blocking wait there
    /// (a detached task runs on the same pool) stalled every in-process server of the suites running beside it.
    func closesByPeer(within wait: Duration) async -> Bool {
        let deadline = ContinuousClock.now + wait
        while true {
            if isClosedByPeer(waiting: .zero) { return true }
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
    }

    /// Everything read so far.
    private(set) var received: [UInt8] = []

    /// The bytes read so far as text.
    var receivedText: String { String(decoding: received, as: UTF8.self) }

    /// Sends `bytes` one at a time, `interval` apart, until the peer closes the connection or `deadline` passes.
    /// - Returns: How long after the first byte the peer closed the connection, or `nil` when it stayed open.
    func trickle(_ bytes: [UInt8], every interval: Duration, until deadline: Duration) async -> Duration? {
        let started = ContinuousClock.now
        var index = 0
        while ContinuousClock.now - started < deadline {
            if index < bytes.count {
                if !send([bytes[index]]) { return ContinuousClock.now - started }
                index += 1
            }
            let wait = min(interval, deadline - (ContinuousClock.now - started))
            if await closesByPeer(within: max(.zero, wait)) {
                return ContinuousClock.now - started
            }
        }
        return nil
    }

    /// Waits until the peer closes the connection or `timeout` passes.
    /// - Returns: How long it took, or `nil` when the connection stayed open.
    func waitForClose(timeout: Duration) async -> Duration? {
        let started = ContinuousClock.now
        while ContinuousClock.now - started < timeout {
            let wait = min(.milliseconds(250), timeout - (ContinuousClock.now - started))
            if await closesByPeer(within: max(.zero, wait)) {
                return ContinuousClock.now - started
            }
        }
        return nil
    }

    /// The port this end of the connection is bound to.
    func localPort() throws -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw Failure(description: "getsockname failed: errno \(errno)") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Closes the socket (again: nothing).
    func close() {
        guard descriptor >= 0 else { return }
        _ = Glibc.close(descriptor)
        descriptor = -1
    }

    deinit { close() }
}
