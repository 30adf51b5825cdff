import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// The production ``HAAPITransport``: AsyncHTTPClient, redirects never followed, body size capped,
/// the whole exchange bounded by the timeout.
public final class AsyncHTTPClientTransport: HAAPITransport {
    private let httpClient: HTTPClient
    private let ownsClient: Bool
    private let logger: Logger

    /// Wraps an existing client; ``shutdown()`` leaves it running. The client should not follow redirects.
    /// - Parameters:
    ///   - httpClient: The client to use.
    ///   - logger: A logger for trace output.
    public init(httpClient: HTTPClient, logger: Logger = Logger(label: "haapi.transport")) {
        self.httpClient = httpClient
        self.ownsClient = false
        self.logger = logger
    }

    /// Creates and owns a client configured from `configuration`: connect timeout, extra trust roots,
    /// and the client certificate for mutual TLS.
    /// - Parameters:
    ///   - configuration: The client configuration.
    ///   - logger: A logger for trace output.
    /// - Throws: ``HAAPIError/Code/crypto`` when a certificate or key cannot be loaded.
    public init(configuration: HAAPIClientConfiguration, logger: Logger = Logger(label: "haapi.transport")) throws(HAAPIError) {
        var tls = TLSConfiguration.makeClientConfiguration()
        do {
            if !configuration.additionalTrustRootsPEM.isEmpty {
                var certificates: [NIOSSLCertificate] = []
                for pem in configuration.additionalTrustRootsPEM {
                    certificates += try NIOSSLCertificate.fromPEMBytes(Array(pem.utf8))
                }
                tls.additionalTrustRoots = [.certificates(certificates)]
            }
            if case .mutualTLS(let certificatePEM, let privateKeyPEM) = configuration.clientAuthentication {
                let chain = try NIOSSLCertificate.fromPEMBytes(Array(certificatePEM.utf8))
                tls.certificateChain = chain.map { .certificate($0) }
                tls.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(privateKeyPEM.utf8), format: .pem))
            }
        } catch {
            throw HAAPIError(.crypto, "a TLS certificate or key could not be loaded")
        }
        var pool = HTTPClient.Configuration.ConnectionPool(
            idleTimeout: .seconds(60),
            concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, configuration.maximumConnections)
        )
        // A connection that cannot be made fails its request at once, named (refused, name resolution, TLS): a person
        // gets "try again" without waiting out the timeout, and no pool slot sits in AsyncHTTPClient's reconnect backoff
        // (up to a minute) after an outage, which kept the pool from growing again (found by `scripts/soak --faults`).
        pool.retryConnectionEstablishment = false
        var clientConfiguration = HTTPClient.Configuration(
            tlsConfiguration: tls,
            redirectConfiguration: .disallow,
            timeout: .init(
                connect: .nanoseconds(Self.nanoseconds(configuration.connectTimeout)),
                read: .nanoseconds(Self.nanoseconds(configuration.requestTimeout))
            ),
            connectionPool: pool
        )
        // The call's span is the client's own (``UpstreamCallSpan``): AsyncHTTPClient's would record the URL with its query.
        clientConfiguration.tracing.tracer = nil
        self.httpClient = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: clientConfiguration)
        self.ownsClient = true
        self.logger = logger
    }

    /// Sends `request`; see ``HAAPITransport/send(_:timeout:maxBodyBytes:)``.
    /// - Parameters:
    ///   - request: The request.
    ///   - timeout: The limit for the whole exchange, including the body.
    ///   - maxBodyBytes: The largest accepted body.
    public func send(_ request: HTTPRequestData, timeout: Duration, maxBodyBytes: Int) async throws -> HTTPResponseData {
        let client = httpClient
        let logger = logger
        // AsyncHTTPClient's own deadline comes first, so that its error names the cause (a refused connection, say);
        // this one is the backstop, late enough that a loaded machine's AsyncHTTPClient still reports first.
        return try await Self.withTimeout(timeout + .seconds(2), on: client.eventLoopGroup.any()) {
            var outgoing = HTTPClientRequest(url: request.url.absoluteString)
            outgoing.method = .init(rawValue: request.method)
            for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
            if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
            let response: HTTPClientResponse
            do {
                // AsyncHTTPClient's own trace logs print request and response headers (tokens, proofs,
                // Session-Id), so it never gets the caller's logger.
                response = try await client.execute(outgoing, deadline: .now() + .nanoseconds(Self.nanoseconds(timeout)), logger: nil)
            } catch {
                throw Self.map(error, phase: "sending the request")
            }
            let status = Int(response.status.code)
            let headers = response.headers.map { (name: $0.name, value: $0.value) }
            let contentType = response.headers.first(name: "Content-Type")
            let buffer: ByteBuffer
            do {
                buffer = try await response.body.collect(upTo: maxBodyBytes)
            } catch is NIOTooManyBytesError {
                throw HAAPIError.malformed("the response body exceeds \(maxBodyBytes) bytes", status: status, contentType: contentType)
            } catch {
                let mapped = Self.map(error, phase: "reading the response body")
                logger.debug("HAAPI response body could not be read", metadata: ["status": .stringConvertible(status), "code": "\(mapped.code)"])
                if mapped.code == .timeout { throw mapped }
                throw HAAPIError.malformed("the response body was cut off before it was complete", status: status, contentType: contentType)
            }
            return HTTPResponseData(status: status, headers: headers, body: Data(buffer.readableBytesView))
        }
    }

    /// Shuts the owned client down; does nothing for a client passed in.
    public func shutdown() async throws {
        if ownsClient { try await httpClient.shutdown() }
    }

    static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    static func map(_ error: any Error, phase: String) -> HAAPIError {
        if let error = error as? HAAPIError { return error }
        if let named = connectionFailure(error, phase: phase) { return named }
        if let error = error as? HTTPClientError {
            switch error {
            case .deadlineExceeded, .readTimeout, .connectTimeout:
                return HAAPIError(.timeout, "the upstream did not answer in time while \(phase)")
            default:
                return HAAPIError(.transport, "the HTTP exchange failed while \(phase) (\(error.shortDescriptionForLog))")
            }
        }
        if error is CancellationError { return HAAPIError(.timeout, "the request was cancelled while \(phase)") }
        return HAAPIError(.transport, "the HTTP exchange failed while \(phase) (\(type(of: error)))")
    }

    /// A failure to connect, named for what it is: nothing listening, a name that does not resolve, a TLS handshake that
    /// failed (AsyncHTTPClient reports the last such failure when its connect deadline passes).
    static func connectionFailure(_ error: any Error, phase: String) -> HAAPIError? {
        switch error {
        case let failure as NIOConnectionError:
            if let refused = failure.connectionErrors.lazy.compactMap({ connectionFailure($0.error, phase: phase) }).first { return refused }
            if failure.connectionErrors.isEmpty, failure.dnsAError != nil || failure.dnsAAAAError != nil {
                return HAAPIError(.nameResolution, "the upstream's host name could not be resolved while \(phase)")
            }
            return nil
        case let io as IOError where io.errnoCode == ECONNREFUSED:
            return HAAPIError(.connectionRefused, "the upstream refused the connection (nothing listens there) while \(phase)")
        case is SocketAddressError:
            return HAAPIError(.nameResolution, "the upstream's host name could not be resolved while \(phase)")
        case is NIOSSLError, is BoringSSLError, is NIOSSLExtraError:
            return HAAPIError(.tls, "the TLS handshake with the upstream failed while \(phase) (certificate not trusted, wrong name, or not TLS)")
        default:
            return nil
        }
    }

    /// Runs `operation`, failing with ``HAAPIError/Code/timeout`` after `timeout`: in a task of its own, which a timer
    /// on `eventLoop` cancels at the limit. The timer is removed as soon as the operation ends; a sleeping child task,
    /// as this was before, stayed scheduled for the whole limit after every exchange (a task and a dispatch timer, about
    /// 1 KiB for 12 s per upstream call, a fifth of the memory of a new sign-in in a heap profile, `artifacts/profiles/`).
    static func withTimeout<T: Sendable>(
        _ timeout: Duration,
        on eventLoop: any EventLoop = HTTPClient.defaultEventLoopGroup.any(),
        _ operation: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let work = Task { try await operation() }
        let expiry = Expiry()
        let timer = eventLoop.scheduleTask(in: .nanoseconds(nanoseconds(timeout))) {
            expiry.fired.store(true, ordering: .relaxed)
            work.cancel()
        }
        defer { timer.cancel() }
        let result = await withTaskCancellationHandler {
            await work.result
        } onCancel: {
            work.cancel()
        }
        // An answer that came is the answer. A failure at the limit is a timeout, whatever the cancelled operation made of
        // its cancellation, unless the exchange had failed for a cause the cancellation cannot make: on a loaded machine
        // a refused connection may only be seen after the timer, which runs on its own thread, has fired.
        if case .failure(let error) = result, expiry.fired.load(ordering: .relaxed),
            !((error as? HAAPIError).map { Self.causesNamedBeforeTheLimit.contains($0.code) } ?? false)
        {
            throw HAAPIError(.timeout, "the upstream did not answer within \(timeout)")
        }
        return try result.get()
    }

    /// Failures that name their cause and that no cancellation produces.
    private static let causesNamedBeforeTheLimit: Set<HAAPIError.Code> = [.connectionRefused, .nameResolution, .tls]

    /// Whether a ``withTimeout(_:on:_:)`` limit was reached.
    private final class Expiry: Sendable {
        let fired = Atomic<Bool>(false)
    }
}

extension HTTPClientError {
    /// A short, secret-free name for logs.
    var shortDescriptionForLog: String { String(describing: self).prefix(80).description }
}
