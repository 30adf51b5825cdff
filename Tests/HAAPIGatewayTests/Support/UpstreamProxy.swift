import AsyncHTTPClient
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTLS
import NIOCore
import NIOPosix
import NIOSSL

/// A loopback reverse proxy between the gateway and the demo server. It keeps a copy of every request and response
/// (the only place a test can see the authorization code, the HAAPI token and the DPoP proofs the gateway exchanges
/// with its upstream), and while a fault is set it answers HAAPI calls with the fault instead of forwarding them.
final class UpstreamProxy: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private var currentFault: UpstreamFault?
    private var faultsAnswered = 0
    private let targetPort: Int

    /// Everything forwarded, one entry per request and one per response.
    var traffic: [String] { lock.withLock { recorded } }

    /// The fault HAAPI calls get from now on (discovery is always forwarded); nil forwards everything.
    var fault: UpstreamFault? {
        get { lock.withLock { currentFault } }
        set { lock.withLock { currentFault = newValue } }
    }

    /// The fault discovery requests (`…/.well-known/…`) get from now on; nil forwards them.
    var discoveryFault: UpstreamFault? {
        get { lock.withLock { currentDiscoveryFault } }
        set { lock.withLock { currentDiscoveryFault = newValue } }
    }
    private var currentDiscoveryFault: UpstreamFault?

    /// How many requests were answered with a fault.
    var faultCount: Int { lock.withLock { faultsAnswered } }

    /// - Parameter targetPort: The loopback port requests are forwarded to.
    init(targetPort: Int) { self.targetPort = targetPort }

    /// A loopback port that was free a moment ago (for a server that must know its public URL before it starts).
    static func freeLoopbackPort() async throws -> Int {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        let port = channel.localAddress?.port ?? 0
        try await channel.close()
        return port
    }

    /// The proxy as an application to run with `test(.live)`; with `tls`, it listens on HTTPS.
    func application(tls: TLSConfiguration? = nil) throws -> some ApplicationProtocol {
        let router = Router()
        router.get("**") { request, _ in try await self.handle(request) }
        router.post("**") { request, _ in try await self.handle(request) }
        return Application(
            router: router,
            server: try tls.map { try .tls(.http1(), tlsConfiguration: $0) } ?? .http1(),
            configuration: .init(address: .hostname("127.0.0.1", port: 0))
        )
    }

    private func handle(_ request: Request) async throws -> Response {
        if request.uri.path.contains("/.well-known/"), case .answer(let status, let contentType, let body)? = discoveryFault {
            return Response(status: .init(code: status), headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(string: body)))
        }
        guard !request.uri.path.contains("/.well-known/"), let fault else { return try await forward(request) }
        if case .answerOnce(let suffix, _) = fault, !request.uri.path.hasSuffix(suffix) { return try await forward(request) }
        lock.withLock { faultsAnswered += 1 }
        switch fault {
        case .answerOnce(_, let status):
            self.fault = nil
            return Response(
                status: .init(code: status),
                headers: [.contentType: "text/html"],
                body: .init(byteBuffer: ByteBuffer(string: "<html>busy</html>"))
            )
        case .delay(let milliseconds):
            try await Task.sleep(for: .milliseconds(milliseconds))
            return try await forward(request)
        case .answer(let status, let contentType, let body):
            return Response(status: .init(code: status), headers: [.contentType: contentType], body: .init(byteBuffer: ByteBuffer(string: body)))
        case .silence(let seconds):
            let until = ContinuousClock.now + .seconds(seconds)
            while ContinuousClock.now < until, self.fault != nil { try await Task.sleep(for: .milliseconds(100)) }
            return Response(status: .serviceUnavailable)
        case .slowBody(let body, let milliseconds):
            return Response(
                status: .ok,
                headers: [.contentType: "application/vnd.auth+json"],
                body: ResponseBody { writer in
                    for byte in body.utf8 {
                        try await writer.write(ByteBuffer(bytes: [byte]))
                        if self.fault != nil { try await Task.sleep(for: .milliseconds(milliseconds)) }
                    }
                    try await writer.finish(nil)
                }
            )
        case .nonceStorm:
            var headers: HTTPFields = [.contentType: "application/json"]
            headers[HTTPField.Name("DPoP-Nonce")!] = UUID().uuidString
            headers[.wwwAuthenticate] = #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#
            return Response(status: .unauthorized, headers: headers, body: .init(byteBuffer: ByteBuffer(string: #"{"error":"use_dpop_nonce"}"#)))
        }
    }

    private func forward(_ request: Request) async throws -> Response {
        var request = request
        let body = try await request.collectBody(upTo: 1 << 20)
        var outgoing = HTTPClientRequest(url: "http://127.0.0.1:\(targetPort)\(request.uri.string)")
        outgoing.method = .init(rawValue: request.method.rawValue)
        for field in request.headers where field.name.canonicalName != "host" { outgoing.headers.add(name: field.name.rawName, value: field.value) }
        outgoing.body = .bytes(body)
        record(
            "\(request.method.rawValue) \(request.uri.string)\n" + request.headers.map { "\($0.name.rawName): \($0.value)" }.joined(separator: "\n")
                + "\n\n" + String(buffer: body)
        )
        // The demo answers in milliseconds, but not on a machine whose two cores also build two other worktrees: there a
        // 5 s bound tripped, the proxy answered 502 of its own, and the gateway (whose client waits a minute here) was
        // told the upstream refused its HAAPI token, so three tests met "Sign-in service unavailable" (a full run beside
        // two builds, 2026-11-27). The bound still keeps a request in flight when the demo stops (AsyncHTTPClient retries
        // a refused connection until its deadline) from holding the proxy's shutdown for long.
        let response = try await HTTPClient.shared.execute(outgoing, timeout: .seconds(30))
        let responseBody = try await response.body.collect(upTo: 1 << 22)
        record(
            "\(response.status.code)\n" + response.headers.map { "\($0.name): \($0.value)" }.joined(separator: "\n") + "\n\n"
                + String(buffer: responseBody)
        )
        var headers = HTTPFields()
        for header in response.headers where !["content-length", "transfer-encoding", "connection"].contains(header.name.lowercased()) {
            if let name = HTTPField.Name(header.name) { headers.append(HTTPField(name: name, value: header.value)) }
        }
        return Response(status: .init(code: Int(response.status.code)), headers: headers, body: .init(byteBuffer: responseBody))
    }

    private func record(_ entry: String) { lock.withLock { recorded.append(entry) } }
}
