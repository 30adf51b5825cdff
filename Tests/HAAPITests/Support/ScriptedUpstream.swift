import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A request as the in-test server saw it.
struct RecordedRequest: Sendable {
    let method: String
    let path: String
    let query: String
    let headers: [String: String]
    let body: Data

    func header(_ name: String) -> String? { headers[name.lowercased()] }
    var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// Form body or query pairs, decoded.
    var formValues: [String: String] { Self.decodeForm(bodyText) }
    var queryValues: [String: String] { Self.decodeForm(query) }

    static func decodeForm(_ text: String) -> [String: String] {
        var values: [String: String] = [:]
        for part in text.split(separator: "&") {
            let pieces = part.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(pieces[0]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            let value = pieces.count > 1 ? (String(pieces[1]).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? "") : ""
            values[name] = value
        }
        return values
    }
}

/// What the in-test server answers.
struct ScriptedReply: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: String = ""
    var delay: Duration? = nil
    var truncateAfterBytes: Int? = nil

    static func json(_ status: Int = 200, _ body: String, contentType: String = "application/json", headers: [(String, String)] = []) -> ScriptedReply
    {
        ScriptedReply(status: status, headers: [("Content-Type", contentType)] + headers, body: body)
    }

    static func step(_ body: String, headers: [(String, String)] = []) -> ScriptedReply {
        json(200, body, contentType: "application/vnd.auth+json", headers: headers)
    }

    static func haapiToken(_ token: String = "haapi-token-1", expiresIn: Int = 600) -> ScriptedReply {
        json(200, #"{"access_token":"\#(token)","token_type":"DPoP","expires_in":\#(expiresIn),"scope":"urn:se:curity:scopes:haapi"}"#)
    }
}

/// Everything the server received, in order.
actor RequestLog {
    private(set) var requests: [RecordedRequest] = []
    func append(_ request: RecordedRequest) -> Int {
        requests.append(request)
        return requests.count - 1
    }
    func requests(path: String) -> [RecordedRequest] { requests.filter { $0.path == path } }
    var count: Int { requests.count }
}

/// An in-test HTTP server (Hummingbird on 127.0.0.1, port 0) answering from a closure.
enum ScriptedUpstream {
    struct StartFailure: Error {}

    static func run<T: Sendable>(
        _ handler: @escaping @Sendable (RecordedRequest, RequestLog) async -> ScriptedReply,
        _ body: @Sendable (URL, RequestLog) async throws -> T
    ) async throws -> T {
        let log = RequestLog()
        let (ports, continuation) = AsyncStream.makeStream(of: Int.self)
        let responder = CallbackResponder<BasicRequestContext> { request, _ in
            let buffer = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            if let authority = request.head.authority { headers["host"] = authority }
            for field in request.headers {
                let name = field.name.canonicalName.lowercased()
                headers[name] = headers[name].map { $0 + ", " + field.value } ?? field.value
            }
            let recorded = RecordedRequest(
                method: request.method.rawValue,
                path: request.uri.path,
                query: request.uri.query ?? "",
                headers: headers,
                body: Data(buffer.readableBytesView)
            )
            _ = await log.append(recorded)
            let reply = await handler(recorded, log)
            if let delay = reply.delay { try? await Task.sleep(for: delay) }
            var fields = HTTPFields()
            for (name, value) in reply.headers {
                if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
            }
            let bytes = ByteBuffer(string: reply.body)
            if let cut = reply.truncateAfterBytes {
                fields.append(HTTPField(name: .contentLength, value: String(bytes.readableBytes)))
                let partial = ByteBuffer(string: String(reply.body.prefix(cut)))
                return Response(
                    status: .init(code: reply.status),
                    headers: fields,
                    body: ResponseBody(contentLength: bytes.readableBytes) { writer in
                        try await writer.write(partial)
                        throw CancellationError()
                    }
                )
            }
            return Response(status: .init(code: reply.status), headers: fields, body: .init(byteBuffer: bytes))
        }
        var logger = Logger(label: "scripted-upstream")
        logger.logLevel = .critical
        let app = Application(
            responder: responder,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let server = Task { try await app.run() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next(), port > 0, let url = URL(string: "http://127.0.0.1:\(port)") else {
            server.cancel()
            throw StartFailure()
        }
        do {
            let result = try await body(url, log)
            server.cancel()
            _ = await server.result
            return result
        } catch {
            server.cancel()
            _ = await server.result
            throw error
        }
    }
}
