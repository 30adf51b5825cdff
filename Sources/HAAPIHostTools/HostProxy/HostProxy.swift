import AsyncHTTPClient
import Foundation
import HAAPI
import HAAPIGateway
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import Synchronization

/// `haapi-gateway proxy`: a reverse proxy on loopback to one origin (``ProxyTarget``) that adds the host's sign-in to
/// every request, so that curl and any other program can call an API with tokens they could not use themselves
/// (DPoP-bound ones need a proof per request, signed with the key in the token file).
///
/// Per request: what is not a plain request for the target is refused (``ProxyRequestCheck``, ``ProxyTarget``); the
/// tokens are read through `tokens` (the token file, refreshed under its lock when they expire soon); the client's
/// fields are passed on without hop-by-hop ones and its own `Authorization` and `DPoP` (``ProxyHeaders``), with the
/// proxy's (``ProxyAuthorization``); a `use_dpop_nonce` challenge (``DPoPNonceChallenge``) is answered once with a new
/// proof carrying the nonce, which is kept for the next requests; the answer streams back. One line per request is
/// logged (``ProxyLogLine``), naming the path the request went to under `--to` as the HTTP client sends it
/// (``ProxyTarget/requestTarget(of:)``), or the client's own when the proxy refused it first.
///
/// Bodies stream both ways. Only a request body that may have to be sent twice is held in memory: with a DPoP-bound
/// token, a body whose `Content-Length` is at most ``replayableBodyLimit``. A larger one, or one of unknown length, is
/// streamed; a nonce demanded for it is kept, and the challenge goes to the client, whose own retry then passes.
public final class HostProxy: HTTPResponder, Sendable {
    public typealias Context = BasicRequestContext

    /// The largest request body held in memory to be sent again after a `use_dpop_nonce` challenge: 1 MiB.
    public static let replayableBodyLimit = 1 << 20

    /// The largest answer to a nonce challenge read and dropped before the request is sent again.
    static let challengeBodyLimit = 64 << 10

    let target: ProxyTarget
    private let tokens: @Sendable () async -> Result<OAuthTokens, HostTokenProblem>
    let tokenFile: String
    private let client: HTTPClient
    private let nonces = DPoPNonceStore()
    private let logger: Logger
    private let replayLimit: Int
    private let port = Atomic<Int>(-1)

    /// - Parameters:
    ///   - target: Where requests go.
    ///   - tokens: The current tokens, or why there are none (asked for each request).
    ///   - tokenFile: The token file `tokens` reads, named when its access token cannot be sent (``HostTokenText``).
    ///   - logger: Where the line of each request goes (at `info`).
    ///   - replayableBodyLimit: The largest request body held in memory for a nonce retry.
    public init(
        target: ProxyTarget,
        tokens: @escaping @Sendable () async -> Result<OAuthTokens, HostTokenProblem>,
        tokenFile: String,
        logger: Logger,
        replayableBodyLimit: Int = HostProxy.replayableBodyLimit
    ) {
        self.target = target
        self.tokens = tokens
        self.tokenFile = tokenFile
        self.logger = logger
        self.replayLimit = replayableBodyLimit
        // Redirects go back to the client as they are; bodies pass as they are (no decompression); a target that sends
        // nothing for two minutes ends the exchange, a long transfer does not; a connection that cannot be made fails its
        // request at once (retried, it would wait without a bound: the exchange has none).
        var pool = HTTPClient.Configuration.ConnectionPool()
        pool.retryConnectionEstablishment = false
        let configuration = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(10), read: .seconds(120)),
            connectionPool: pool,
            decompression: .disabled
        )
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    /// The port the proxy listens on, once bound: only requests naming it in `Host` are forwarded.
    public func listening(on port: Int) {
        self.port.store(port, ordering: .sequentiallyConsistent)
    }

    /// Releases the HTTP client, after the listener stopped.
    public func shutdown() async {
        try? await client.shutdown()
    }

    /// The listener: `responder` for every request to `address`, `onRunning` with the URL once it listens.
    /// - Parameters:
    ///   - address: A loopback address (``ProxyListenAddress``).
    ///   - onRunning: Called once, with the proxy's URL (`http://127.0.0.1:8787`).
    ///   - logger: The listener's own logger.
    public func application(
        listening address: ProxyListenAddress,
        logger: Logger,
        onRunning: @escaping @Sendable (URL) -> Void
    ) -> some ApplicationProtocol {
        Application(
            responder: self,
            configuration: .init(address: .hostname(address.host, port: address.port), serverName: nil),
            onServerRunning: { [self] channel in
                let port = channel.localAddress?.port ?? address.port
                listening(on: port)
                let host = address.host.contains(":") ? "[\(address.host)]" : address.host
                onRunning(URL(string: "http://\(host):\(port)") ?? URL(fileURLWithPath: "/"))
            },
            logger: logger
        )
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        let started = ContinuousClock.now
        let (response, note, sent) = await answer(request)
        let line = ProxyLogLine.line(
            method: request.method.rawValue,
            requestTarget: sent ?? request.head.path ?? "",
            status: response.status.code,
            duration: ContinuousClock.now - started,
            note: note
        )
        logger.info("\(line)")
        return response
    }

    /// The answer to `request`, what to note in its line, and the request-target it went to under `--to` (nil when it was
    /// refused before one was made).
    private func answer(_ request: Request) async -> (Response, note: String?, sent: String?) {
        let fields = request.headers.map { (name: $0.name.rawName, value: $0.value) }
        let method = request.method.rawValue
        let url: URL
        do throws(ProxyRefusal) {
            let ownPort = port.load(ordering: .sequentiallyConsistent)
            if let refusal = ProxyRequestCheck.refusal(
                method: method,
                authority: request.head.authority,
                fields: fields,
                port: ownPort,
                target: target
            ) {
                throw refusal
            }
            url = try target.url(for: request.head.path ?? "")
        } catch {
            return (Self.response(error), error.message, nil)
        }
        let sent = ProxyTarget.requestTarget(of: url)
        let current: OAuthTokens
        switch await tokens() {
        case .success(let tokens):
            // A token an HTTP header cannot carry is not sent: the client would refuse the field and describe it, token
            // and all, in the answer and the log.
            if case .failure(let problem) = HostTokenText.checked(tokens.accessToken, what: "access token", path: tokenFile) {
                let refusal = ProxyRefusal(status: 503, "no token to add: " + problem.message)
                return (Self.response(refusal), refusal.message, sent)
            }
            current = tokens
        case .failure(let problem):
            let refusal = ProxyRefusal(status: 503, "no token to add: " + SecretRedaction.redactingURLPasswords(in: problem.message))
            return (Self.response(refusal), refusal.message, sent)
        }
        let (response, note) = await forward(request, fields: fields, to: url, with: current)
        return (response, note, sent)
    }

    /// Sends the request to `url` with the proxy's authorization and streams the answer back.
    private func forward(
        _ request: Request,
        fields: [(name: String, value: String)],
        to url: URL,
        with tokens: OAuthTokens
    ) async -> (Response, note: String?) {
        do {
            let (body, replayable) = try await outgoingBody(of: request, dpopBound: tokens.isDPoPBound)
            let (answer, note) = try await exchange(request.method.rawValue, url, fields: fields, body: body, replayable: replayable, tokens: tokens)
            var headers = HTTPFields()
            for field in ProxyHeaders.towardsClient(Self.fields(of: answer)) {
                if let name = HTTPField.Name(field.name) { headers.append(HTTPField(name: name, value: field.value)) }
            }
            let status = HTTPResponse.Status(code: Int(answer.status.code), reasonPhrase: answer.status.reasonPhrase)
            return (Response(status: status, headers: headers, body: ResponseBody(asyncSequence: answer.body)), note)
        } catch let refusal as ProxyRefusal {
            return (Self.response(refusal), refusal.message)
        } catch {
            let refusal = ProxyRefusal(status: 502, "\(target.origin) could not be reached: \(Self.describe(error))")
            return (Self.response(refusal), refusal.message)
        }
    }

    /// The body to send: none, the whole of it in memory when it may have to be sent twice (a DPoP-bound token, a
    /// `Content-Length` of at most ``replayableBodyLimit``), else the client's stream, which can be sent once.
    private func outgoingBody(of request: Request, dpopBound: Bool) async throws(ProxyRefusal) -> (HTTPClientRequest.Body?, replayable: Bool) {
        let contentLength = request.headers[.contentLength].flatMap { Int($0) }
        switch contentLength {
        case 0: return (.bytes(ByteBuffer()), true)
        case nil where request.headers[.transferEncoding] == nil: return (nil, true)
        case .some(let length) where dpopBound && length <= replayLimit:
            do {
                return (.bytes(try await request.body.collect(upTo: replayLimit)), true)
            } catch {
                throw ProxyRefusal(status: 400, "the request body could not be read")
            }
        default: return (.stream(request.body, length: contentLength.map { .known(Int64($0)) } ?? .unknown), false)
        }
    }

    /// Sends the request once, and for a DPoP-bound token once more when the answer is a `use_dpop_nonce` challenge and
    /// the body can be sent again; keeps every nonce the target gives.
    /// - Returns: The target's answer, its body not yet read, and what to note in the line.
    private func exchange(
        _ method: String,
        _ url: URL,
        fields: [(name: String, value: String)],
        body: HTTPClientRequest.Body?,
        replayable: Bool,
        tokens: OAuthTokens
    ) async throws -> (HTTPClientResponse, note: String?) {
        let key = tokens.isDPoPBound ? tokens.dpopKey : nil
        var answer = try await send(method, url, fields: fields, body: body, tokens: tokens, nonce: key.flatMap { nonces.nonce(for: $0) })
        guard let key else { return (answer, nil) }
        var note: String?
        if let demanded = DPoPNonceChallenge.demandedNonce(status: Int(answer.status.code), fields: Self.fields(of: answer)) {
            nonces.update(demanded, for: key)
            if replayable {
                _ = try? await answer.body.collect(upTo: Self.challengeBodyLimit)
                answer = try await send(method, url, fields: fields, body: body, tokens: tokens, nonce: demanded)
                note = "use_dpop_nonce: sent again with the server's nonce"
            } else {
                note = "use_dpop_nonce: the body was streamed, so the challenge goes to the client; the nonce is kept"
            }
        }
        if let offered = DPoPNonceChallenge.offeredNonce(Self.fields(of: answer)) { nonces.update(offered, for: key) }
        return (answer, note)
    }

    /// The header fields of an answer, as names and values.
    private static func fields(of answer: HTTPClientResponse) -> [(name: String, value: String)] {
        answer.headers.map { (name: $0.name, value: $0.value) }
    }

    /// One exchange with the target, with a new proof.
    private func send(
        _ method: String,
        _ url: URL,
        fields: [(name: String, value: String)],
        body: HTTPClientRequest.Body?,
        tokens: OAuthTokens,
        nonce: String?
    ) async throws -> HTTPClientResponse {
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = NIOHTTP1.HTTPMethod(rawValue: method)
        for field in ProxyHeaders.towardsTarget(fields) { outgoing.headers.add(name: field.name, value: field.value) }
        for field in try ProxyAuthorization.fields(for: tokens, method: method, url: url, nonce: nonce) {
            outgoing.headers.add(name: field.name, value: field.value)
        }
        outgoing.body = body
        // AsyncHTTPClient's own trace logs print request headers (the token, the proof): it never gets a logger.
        return try await client.execute(outgoing, deadline: .distantFuture, logger: nil)
    }

    /// A plain-text answer of the proxy's own.
    static func response(_ refusal: ProxyRefusal) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "text/plain; charset=utf-8"
        return Response(
            status: HTTPResponse.Status(code: refusal.status),
            headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(string: refusal.body))
        )
    }

    /// A failure to reach the target, in a few words (no header or body in it: an HTTP client error by its short
    /// description, which has none of the values its full one may name, such as a header field's).
    static func describe(_ error: any Error) -> String {
        switch error {
        case let error as HTTPClientError:
            if error == .connectTimeout { return "no connection within 10 s" }
            if error == .readTimeout { return "it sent nothing for 120 s" }
            return LogText.untrusted(error.shortDescription)
        case let failure as NIOConnectionError:
            if failure.connectionErrors.contains(where: { ($0.error as? IOError)?.errnoCode == ECONNREFUSED }) {
                return "the connection was refused (nothing listens there)"
            }
            if failure.connectionErrors.isEmpty, failure.dnsAError != nil || failure.dnsAAAAError != nil { return "its name could not be resolved" }
            return "no connection could be made"
        case let error as IOError where error.errnoCode == ECONNREFUSED: return "the connection was refused (nothing listens there)"
        case is NIOSSLError, is BoringSSLError: return "the TLS handshake failed (a certificate not trusted, another name, or not TLS)"
        default: return LogText.untrusted(String(describing: type(of: error)))
        }
    }
}
