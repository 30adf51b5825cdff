import Foundation
import Hummingbird

/// Builds the demo server's HTTP responses.
enum DemoResponse {
    static let haapiMediaType = "application/vnd.auth+json"
    static let problemMediaType = "application/problem+json"

    private static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    /// A JSON body with the given content type; no caching, as for every OAuth and HAAPI answer.
    static func json(
        _ value: some Encodable,
        status: HTTPResponse.Status = .ok,
        contentType: String = "application/json",
        headers: HTTPFields = [:]
    ) -> Response {
        let data = (try? encoder().encode(value)) ?? Data("{}".utf8)
        var fields = headers
        fields[.contentType] = contentType
        fields[.cacheControl] = "no-store"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// A HAAPI step.
    static func representation(_ representation: Representation, headers: HTTPFields = [:]) -> Response {
        json(representation, contentType: haapiMediaType, headers: headers)
    }

    /// A HAAPI problem, with its own status.
    static func problem(_ problem: Problem, headers: HTTPFields = [:]) -> Response {
        json(problem, status: HTTPResponse.Status(code: problem.status), contentType: problemMediaType, headers: headers)
    }

    /// An OAuth error (RFC 6749 §5.2 shape).
    static func oauthError(_ error: OAuthError, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        if let challenge = error.wwwAuthenticate { fields[.wwwAuthenticate] = challenge }
        return json(
            ["error": error.code, "error_description": error.description],
            status: HTTPResponse.Status(code: error.status),
            headers: fields
        )
    }

    /// A PNG image; not cached (it belongs to one flow).
    static func png(_ data: Data, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "image/png"
        fields[.cacheControl] = "no-store"
        return Response(status: .ok, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// An HTML page.
    static func html(_ page: String, status: HTTPResponse.Status = .ok) -> Response {
        var fields: HTTPFields = [:]
        fields[.contentType] = "text/html; charset=utf-8"
        fields[.cacheControl] = "no-store"
        fields[.contentSecurityPolicy] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:; form-action *"
        return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    /// A 401 from a DPoP-protected resource (RFC 9449 §7.1), with an empty body.
    static func unauthorized(challenge: String, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.wwwAuthenticate] = challenge
        fields[.cacheControl] = "no-store"
        return Response(status: .unauthorized, headers: fields)
    }
}
