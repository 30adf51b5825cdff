import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// A response as the tests see it.
struct TestResponse: Sendable {
    let status: Int
    let headers: [(String, String)]
    let body: Data

    func header(_ name: String) -> String? { headers.first { $0.0.lowercased() == name.lowercased() }?.1 }
    var contentType: String? { header("Content-Type") }
    var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Plain HTTP for the tests (AsyncHTTPClient, no redirects followed), recording every HAAPI body
/// (`application/vnd.auth+json` and `application/problem+json`) for schema validation.
final class TestHTTP: Sendable {
    static let client = HTTPClient(
        eventLoopGroupProvider: .singleton,
        configuration: HTTPClient.Configuration(redirectConfiguration: .disallow)
    )

    private let recorded = Mutex<[Data]>([])

    /// The HAAPI bodies seen so far.
    var recordedBodies: [Data] { recorded.withLock { $0 } }

    func send(_ method: HTTPMethod, _ url: String, headers: [(String, String)] = [], body: String? = nil) async throws -> TestResponse {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let body { request.body = .bytes(ByteBuffer(string: body)) }
        let response = try await Self.client.execute(request, timeout: .seconds(15))
        let buffer = try await response.body.collect(upTo: 4 * 1024 * 1024)
        let data = Data(buffer.readableBytesView)
        let result = TestResponse(status: Int(response.status.code), headers: response.headers.map { ($0.name, $0.value) }, body: data)
        if let type = result.contentType, type.hasPrefix("application/vnd.auth+json") || type.hasPrefix("application/problem+json") {
            recorded.withLock { $0.append(data) }
        }
        return result
    }

    /// `application/x-www-form-urlencoded` encoding.
    static func formEncode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map {
            "\($0.0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }
        .joined(separator: "&")
    }
}
