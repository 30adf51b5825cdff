import Foundation
import HAAPI
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization

/// An API for `haapi-gateway proxy` to forward to, on a free loopback port, that records every request it gets (its root
/// too)
/// (method, target, `Host` and the other header fields, the whole body) and answers:
/// - `…/download/N`: N bytes (``RecordingTarget/pattern(count:)``), streamed in 64 KiB pieces;
/// - `…/nonce/NAME`: as a resource server that requires DPoP nonces (RFC 9449 §9): 401 with
///   `WWW-Authenticate: DPoP error="use_dpop_nonce"` and `DPoP-Nonce: NAME-nonce` unless the request's proof carries
///   that nonce, then 200;
/// - anything else: 200 `recorded`.
final class RecordingTarget: Sendable {
    /// One request as it arrived.
    struct Recorded: Sendable {
        let method: String
        let target: String
        let fields: [(name: String, value: String)]
        let body: Data

        /// The values of the fields named `name`.
        func values(_ name: String) -> [String] { fields.filter { $0.name.lowercased() == name.lowercased() }.map(\.value) }

        /// The claims of the request's DPoP proof, if it has one.
        var proofClaims: [String: Any]? {
            guard let proof = values("DPoP").first, case let parts = proof.split(separator: "."), parts.count == 3,
                let data = Base64URL.decode(String(parts[1]))
            else { return nil }
            return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        }
    }

    private let recorded = Mutex<[Recorded]>([])

    /// Every request so far.
    var requests: [Recorded] { recorded.withLock { $0 } }

    /// `count` bytes of a fixed pattern that no shifted or cut copy matches.
    static func pattern(count: Int) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 251) })
    }

    /// Serves while `body` runs with the target's origin (`http://127.0.0.1:PORT`).
    func serving<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put, .delete, .head] {
            router.on("/", method: method) { [self] request, _ in try await answer(request) }
            router.on("**", method: method) { [self] request, _ in try await answer(request) }
        }
        return try await LoopbackServer.serving(router, label: "recording-target") { port in try await body("http://127.0.0.1:\(port)") }
    }

    private func answer(_ request: Request) async throws -> Response {
        let body = try await request.body.collect(upTo: 64 << 20)
        let entry = Recorded(
            method: request.method.rawValue,
            target: request.head.path ?? "",
            fields: [(name: "Host", value: request.head.authority ?? "")] + request.headers.map { (name: $0.name.rawName, value: $0.value) },
            body: Data(body.readableBytesView)
        )
        recorded.withLock { $0.append(entry) }
        let path = entry.target.prefix { $0 != "?" }
        if let download = path.range(of: "/download/"), let count = Int(path[download.upperBound...]) {
            return Response(
                status: .ok,
                headers: [.contentType: "application/octet-stream"],
                body: ResponseBody { writer in
                    let bytes = Self.pattern(count: count)
                    var offset = 0
                    while offset < bytes.count {
                        let end = min(offset + 65_536, bytes.count)
                        try await writer.write(ByteBuffer(bytes: bytes[offset..<end]))
                        offset = end
                    }
                    try await writer.finish(nil)
                }
            )
        }
        if let name = path.range(of: "/nonce/") {
            let nonce = path[name.upperBound...] + "-nonce"
            guard entry.proofClaims?["nonce"] as? String == String(nonce) else {
                return Response(
                    status: .unauthorized,
                    headers: [
                        .wwwAuthenticate: #"DPoP error="use_dpop_nonce", error_description="Resource server requires nonce in DPoP proof""#,
                        HTTPField.Name("DPoP-Nonce")!: String(nonce),
                    ],
                    body: ResponseBody(byteBuffer: ByteBuffer(string: "a nonce, please"))
                )
            }
        }
        return Response(status: .ok, headers: [.contentType: "text/plain"], body: ResponseBody(byteBuffer: ByteBuffer(string: "recorded")))
    }
}
