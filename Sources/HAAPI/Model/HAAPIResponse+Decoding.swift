import Foundation

extension HAAPIResponse {
    /// Decodes an HTTP answer of a HAAPI call into a step or a problem.
    ///
    /// Dispatches on the content type (`application/vnd.auth+json` → step, `application/problem+json` →
    /// problem); plain `application/json` is accepted and dispatched on whether `type` is a URI.
    /// - Parameters:
    ///   - status: The HTTP status.
    ///   - contentType: The `Content-Type` header.
    ///   - body: The body bytes.
    ///   - keepingRawJSON: Whether a step keeps its JSON as `raw` (a problem always does).
    /// - Throws: ``HAAPIError/Code/malformedResponse`` for another content type or invalid JSON;
    ///   ``HAAPIError/Code/upstreamStatus`` for an error status without a problem document.
    public static func decode(status: Int, contentType: String?, body: Data, keepingRawJSON: Bool = true) throws(HAAPIError) -> HAAPIResponse {
        let mediaType = MediaType.of(contentType)
        let isRepresentation = mediaType == "application/vnd.auth+json"
        let isProblem = mediaType == "application/problem+json"
        let isJSON = mediaType == "application/json"
        guard isRepresentation || isProblem || isJSON else {
            if status >= 400 {
                throw HAAPIError(
                    .upstreamStatus,
                    "the upstream answered with HTTP \(status) and a non-HAAPI content type",
                    status: status,
                    contentType: contentType ?? "none"
                )
            }
            throw .malformed("the upstream answered with a content type that is not HAAPI", status: status, contentType: contentType ?? "none")
        }
        let json: JSONValue
        do throws(JSONParser.SyntaxError) {
            json = try JSONParser.parse(body)
        } catch {
            throw .malformed(
                "the upstream answer is not valid JSON (\(body.count) bytes, stopped at byte \(error.offset))",
                status: status,
                contentType: contentType
            )
        }
        let type = json["type"]?.stringValue ?? ""
        let looksLikeProblem = type.contains(":") || type.isEmpty && status >= 400
        if isProblem || (isJSON && looksLikeProblem) || (isRepresentation && status >= 400 && type.contains(":")) {
            do throws(HAAPIError) {
                return .problem(try Problem(json: json, httpStatus: status))
            } catch {
                throw HAAPIError(error.code, error.message, status: status, contentType: contentType)
            }
        }
        guard (200..<300).contains(status) else {
            throw HAAPIError(
                .upstreamStatus,
                "the upstream answered with HTTP \(status) without a problem document",
                status: status,
                contentType: contentType
            )
        }
        do throws(HAAPIError) {
            return .representation(try Representation(json: json, keepingRawJSON: keepingRawJSON))
        } catch {
            throw HAAPIError(error.code, error.message, status: status, contentType: contentType)
        }
    }
}
