import HAAPI

/// A verified start link: the application's reference for this sign-in and the authorize parameters it chose.
struct StartLink: Sendable, Equatable, Codable {
    /// The application's reference (`ref`), handed back in the outcome and to `completion.redirectURL`.
    let reference: String?
    /// `login_hint`, `ui_locales`, `acr_values` and `prompt` from the link, each only when allowed.
    let parameters: [String: String]

    /// The configured authorize parameters with the link's in their place.
    func applied(to configured: AuthorizationParameters) -> AuthorizationParameters {
        var merged = configured
        if let hint = parameters["login_hint"] { merged.loginHint = hint }
        if let locales = parameters["ui_locales"] { merged.uiLocales = locales.split(separator: " ").map(String.init) }
        if let values = parameters["acr_values"] { merged.acrValues = values.split(separator: " ").map(String.init) }
        if let prompt = parameters["prompt"] { merged.prompt = prompt }
        return merged
    }
}
