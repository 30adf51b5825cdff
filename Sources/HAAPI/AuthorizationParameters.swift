/// Extra parameters of the authorize request. `Codable`, as part of a saved ``HAAPIFlowState``.
public struct AuthorizationParameters: Sendable, Hashable, Codable {
    /// `acr_values`, space-joined.
    public var acrValues: [String]
    /// `prompt`, e.g. `login`.
    public var prompt: String?
    /// `ui_locales`, space-joined.
    public var uiLocales: [String]
    /// `login_hint`.
    public var loginHint: String?
    /// `max_age` in seconds.
    public var maxAgeSeconds: Int?
    /// `claims`, a JSON string.
    public var claims: String?
    /// Any other parameters; reserved names (client_id, state, PKCE, ...) are rejected by validation.
    public var additional: [String: String]

    /// Creates parameters.
    /// - Parameters:
    ///   - acrValues: `acr_values`.
    ///   - prompt: `prompt`.
    ///   - uiLocales: `ui_locales`.
    ///   - loginHint: `login_hint`.
    ///   - maxAgeSeconds: `max_age`.
    ///   - claims: `claims` JSON.
    ///   - additional: Other parameters.
    public init(
        acrValues: [String] = [],
        prompt: String? = nil,
        uiLocales: [String] = [],
        loginHint: String? = nil,
        maxAgeSeconds: Int? = nil,
        claims: String? = nil,
        additional: [String: String] = [:]
    ) {
        self.acrValues = acrValues
        self.prompt = prompt
        self.uiLocales = uiLocales
        self.loginHint = loginHint
        self.maxAgeSeconds = maxAgeSeconds
        self.claims = claims
        self.additional = additional
    }

    /// The parameters as query pairs, in a stable order.
    public var queryItems: [(String, String)] {
        var items: [(String, String)] = []
        if !acrValues.isEmpty { items.append(("acr_values", acrValues.joined(separator: " "))) }
        if let prompt { items.append(("prompt", prompt)) }
        if !uiLocales.isEmpty { items.append(("ui_locales", uiLocales.joined(separator: " "))) }
        if let loginHint { items.append(("login_hint", loginHint)) }
        if let maxAgeSeconds { items.append(("max_age", String(maxAgeSeconds))) }
        if let claims { items.append(("claims", claims)) }
        for key in additional.keys.sorted() { items.append((key, additional[key] ?? "")) }
        return items
    }

    /// Names the library sets itself; they cannot be given in ``additional``.
    public static let reservedNames: Set<String> = [
        "client_id", "response_type", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method",
        "acr_values", "prompt", "ui_locales", "login_hint", "max_age", "claims", "dpop_jkt",
    ]
}
