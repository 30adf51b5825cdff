import Foundation

extension HAAPIClient {
    /// The upstream's JWK Set as ID-token validation reads it (the keys it can use, and how many Ed448 keys it cannot),
    /// fetched now through the client's transport and not kept: for checking a deployment before anyone signs in.
    /// - Returns: The set, or nil when the endpoints name no `jwks_uri`.
    /// - Throws: ``IDTokenValidationError/Reason/keySetUnavailable`` when it cannot be fetched or is not a JWK Set.
    public func publishedKeySet() async throws(IDTokenValidationError) -> JSONWebKeySet? {
        guard let url = endpoints.keySet else { return nil }
        let context = context
        return try await IDTokenValidator.download(url) { (request: HTTPRequestData) async throws(HAAPIError) -> HTTPResponseData in
            try await context.send(request)
        }
    }
}
