import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A loopback server that accepts every connection and never answers it (``Behaviour/silent``), or answers the first
/// bytes it reads with a few bytes and then nothing more (``Behaviour/stallsMidAnswer(_:)``): a database, upstream or
/// sink that hangs. Connections are held open until ``stop()``.
public final class SilentPeer: Sendable {
    /// What the peer does with a connection.
    public enum Behaviour: Sendable {
        /// Reads and never writes.
        case silent
        /// Once the first bytes have come, writes these (the start of an answer) and then nothing.
        case stallsMidAnswer([UInt8])
    }

    /// The port it listens on (127.0.0.1).
    public let port: Int
    private let listener: Int32
    private let connections = Mutex<[Int32]>([])
    /// The port each accepted connection came from, in the order accepted.
    private let sourcePorts = Mutex<[Int]>([])
    /// The ports of the connections ``connectionsMadeSoFar(timeout:)`` made itself, which it does not count.
    private let markerPorts = Mutex<Set<Int>>([])
    private let stopped = Mutex(false)

    /// A PostgreSQL server that stalls in the middle of its first answer: the first three bytes of an authentication
    /// request.
    public static let postgresMidAnswer = Behaviour.stallsMidAnswer([UInt8(ascii: "R"), 0, 0])

    /// Starts listening on a free loopback port.
    public init(_ behaviour: Behaviour) throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw Failure() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard bound == 0, named == 0, listen(descriptor, 64) == 0 else {
            close(descriptor)
            throw Failure()
        }
        listener = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { [self] in acceptLoop(behaviour) }
    }

    /// How many connections were made to it before now, its own markers left out. It connects once itself and waits
    /// (at most `timeout`) until that connection is accepted: a listener accepts in the order connections were made, so
    /// every earlier one has been accepted by then, even one whose client has gone since. An earlier call's marker is
    /// not counted: asked again and again until a client connects, a count that took in its own markers said one had
    /// at the second asking (a proxy test was then stopped with nothing under way, under load).
    public func connectionsMadeSoFar(timeout: Duration = .seconds(30)) async throws -> Int {
        let marker = try RawConnection(to: port)
        defer { marker.close() }
        let source = try marker.localPort()
        markerPorts.withLock { _ = $0.insert(source) }
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let index = sourcePorts.withLock({ $0.firstIndex(of: source) }) {
                let markers = markerPorts.withLock { $0 }
                return sourcePorts.withLock { $0[..<index] }.filter { !markers.contains($0) }.count
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw Failure()
    }

    /// Closes the listener and every connection.
    public func stop() {
        let first = stopped.withLock { stopped in
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        for connection in connections.withLock({ $0 }) {
            shutdown(connection, Int32(SHUT_RDWR))
            close(connection)
        }
    }

    deinit { stop() }

    private func acceptLoop(_ behaviour: Behaviour) {
        while !stopped.withLock({ $0 }) {
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else {
                if errno == EINTR { continue }
                return
            }
            connections.withLock { $0.append(connection) }
            var address = sockaddr_in()
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let named = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(connection, $0, &length) }
            }
            sourcePorts.withLock { $0.append(named == 0 ? Int(UInt16(bigEndian: address.sin_port)) : 0) }
            if case .stallsMidAnswer(let bytes) = behaviour {
                Thread.detachNewThread {
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    guard read(connection, &buffer, buffer.count) > 0 else { return }
                    _ = bytes.withUnsafeBytes { write(connection, $0.baseAddress, $0.count) }
                }
            }
        }
    }

    struct Failure: Error {}
}
