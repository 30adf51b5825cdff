import Foundation

extension HAAPIFlowState {
    /// Writes the state as JSON, with the members and value shapes its `Codable` conformance has (a nil optional left
    /// out, dates as `JSONEncoder` writes them), so that decoding the text gives an equal state; the members in a fixed
    /// order, so that equal states give the same bytes. A store's fast path on every save, instead of `JSONEncoder`.
    /// - Parameter writer: Where the state is written, as a value (after its key, in an object).
    /// - Throws: `EncodingError.invalidValue` for a date that is not a finite time (as `JSONEncoder` refuses it).
    package func writeJSON(to writer: inout JSONWriter) throws(EncodingError) {
        writer.beginObject()
        writer.member("formatVersion", formatVersion)
        writer.member("clientID", clientID)
        writer.member("upstreamOrigin", upstreamOrigin)
        writer.member("dpopPrivateKeyPEM", dpopPrivateKeyPEM)
        if let haapiToken {
            writer.key("haapiToken")
            try Self.write(haapiToken, to: &writer)
        }
        writer.member("sessionID", sessionID)
        writer.member("dpopNonce", dpopNonce)
        writer.key("cookies")
        writer.beginArray()
        for cookie in cookies { try Self.write(cookie, to: &writer) }
        writer.endArray()
        writer.member("codeVerifier", codeVerifier)
        writer.member("oauthState", oauthState)
        writer.member("oidcNonce", oidcNonce)
        writer.member("scopes", scopes)
        writer.key("authorizationParameters")
        Self.write(authorizationParameters, to: &writer)
        writer.member("currentStep", currentStep)
        writer.member("lastSubmittedAction", lastSubmittedAction)
        writer.member("started", started)
        writer.member("codeExchanged", codeExchanged)
        writer.member("authorizeCarriedDPoPJKT", authorizeCarriedDPoPJKT)
        writer.endObject()
    }

    /// A token as its synthesized `Encodable` writes it.
    private static func write(_ token: Token, to writer: inout JSONWriter) throws(EncodingError) {
        writer.beginObject()
        writer.member("value", token.value)
        writer.member("tokenType", token.tokenType)
        writer.member("expiresIn", token.expiresIn)
        try writer.member("expiresAt", token.expiresAt)
        writer.endObject()
    }

    /// A cookie as its synthesized `Encodable` writes it (`expires` left out for a session cookie).
    private static func write(_ cookie: Cookie, to writer: inout JSONWriter) throws(EncodingError) {
        writer.beginObject()
        writer.member("name", cookie.name)
        writer.member("value", cookie.value)
        writer.member("domain", cookie.domain)
        writer.member("hostOnly", cookie.hostOnly)
        writer.member("path", cookie.path)
        writer.member("secure", cookie.secure)
        try writer.member("expires", cookie.expires)
        writer.member("order", cookie.order)
        writer.endObject()
    }

    /// The authorize parameters as their synthesized `Encodable` writes them.
    private static func write(_ parameters: AuthorizationParameters, to writer: inout JSONWriter) {
        writer.beginObject()
        writer.member("acrValues", parameters.acrValues)
        writer.member("prompt", parameters.prompt)
        writer.member("uiLocales", parameters.uiLocales)
        writer.member("loginHint", parameters.loginHint)
        writer.member("maxAgeSeconds", parameters.maxAgeSeconds)
        writer.member("claims", parameters.claims)
        writer.member("additional", parameters.additional)
        writer.endObject()
    }
}
