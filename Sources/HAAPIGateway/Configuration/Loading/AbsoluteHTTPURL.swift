import Foundation

/// The one way configuration text becomes an absolute http(s) URL that browsers are sent to or the gateway calls
/// (`completion.redirectURL`, `server.publicURL`, `upstream.baseURL`).
///
/// Parsers disagree about whitespace, control characters and backslashes in URLs (oauth2-proxy CVE-2020-5233 and
/// CVE-2020-11053: `/\evil.com`, `/<TAB>/evil.com`), so any of them anywhere in the text is refused rather than cleaned up,
/// as is user info (`https://good.example@evil.example` reads as `good.example` to a person but goes to `evil.example`).
enum AbsoluteHTTPURL {
    /// The URL, or why the text is not an acceptable absolute http(s) URL.
    static func parse(_ text: String) -> Result<URL, Refusal> {
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control || $0 == "\\" }) {
            return .failure(.unsafeCharacters)
        }
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty, let url = components.url
        else {
            return .failure(.notAbsoluteHTTP)
        }
        guard components.user == nil, components.password == nil else { return .failure(.userInfo) }
        return .success(url)
    }

    /// Why a text was refused.
    enum Refusal: Error, Equatable {
        /// Whitespace, a control character or a backslash somewhere in the text.
        case unsafeCharacters
        /// Not `http(s)://host…`: relative, protocol-relative (`//host`), another scheme or no host.
        case notAbsoluteHTTP
        /// `user@` or `user:password@` before the host.
        case userInfo

        var message: String {
            switch self {
            case .unsafeCharacters: "must not contain whitespace, control characters or backslashes"
            case .notAbsoluteHTTP: "must be an absolute http or https URL"
            case .userInfo: "must not contain user info (name@ before the host)"
            }
        }
    }
}
