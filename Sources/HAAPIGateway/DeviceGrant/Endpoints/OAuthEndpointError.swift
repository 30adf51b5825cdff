import Foundation
import HTTPTypes
import Hummingbird

/// An error answer of the gateway's OAuth endpoints (RFC 6749 §5.2, RFC 8628 §3.5, RFC 7009 §2.2.1): JSON with `error` and
/// `error_description`, never cached; `invalid_client` after HTTP Basic authentication is 401 with `WWW-Authenticate`.
struct OAuthEndpointError: Error, Sendable {
    let error: String
    let description: String
    var status: HTTPResponse.Status = .badRequest
    var headers: HTTPFields = [:]

    init(_ error: String, _ description: String, status: HTTPResponse.Status = .badRequest) {
        self.error = error
        self.description = description
        self.status = status
    }

    /// The JSON response.
    var response: Response {
        var fields = headers
        fields[.contentType] = "application/json"
        fields[.cacheControl] = "no-store"
        let body = ["error": error, "error_description": description]
        let data = (try? JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])) ?? Data()
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
