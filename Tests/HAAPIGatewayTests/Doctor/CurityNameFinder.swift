import Foundation

@testable import HAAPIGateway

/// Finds what a document writes as a Curity name and is not in ``CurityNames``. A Curity name is recognised as:
/// - a problem type URI, `https://curity.se/problems/…` (or `curity.io`), anywhere in the text;
/// - in backticks, a configuration path (lowercase elements joined by `/`, `{…}` keys and `<…>` placeholders allowed; a
///   leading `/` only for `/profiles/…` and `/environments/…`, other leading-slash paths being URL paths), an XML element
///   list (`<haapi><…>`), a kebab-case name (`issuer-override`), or a snake_case name (`use_dpop_nonce`), which must be an
///   error of the table.
/// Single words (`secret`, `scope`) are too common to tell from prose and are not checked; names with a dot, a colon, a
/// space, an ellipsis, capitals or a leading `--` are file names, URLs, prose, headers or command-line switches, and
/// `application/…` and `image/…` are media types.
enum CurityNameFinder {
    /// Names that look like Curity's and are not, each with why.
    static let notCurity: [String: String] = {
        var names: [String: String] = [:]
        let oauth = "an OAuth or OpenID Connect name (RFC 6749, RFC 8628, RFC 9449, OpenID Connect Core or Discovery)"
        for name in [
            "invalid_grant", "invalid_scope", "invalid_client", "unauthorized_client", "invalid_request", "slow_down",
            "expired_token", "redirect_uri", "ui_locales", "max_age", "login_hint", "acr_values", "client_id",
            "client_credentials", "token_type", "token_type_hint", "error_description", "auth_time", "scopes_supported",
            "jwks_uri", "id_token_signing_alg_values_supported", "dpop_jkt", "invalid_redirect_uri",
        ] {
            names[name] = oauth
        }
        let gateway = "the gateway's own name (a configuration value, an outcome, a table, the docs' example client id)"
        for name in [
            "invalid_id_token", "dpop_private_key", "haapi_gateway_upstream_facts", "secret-basic", "secret-post", "secret-jwt",
            "private-key-jwt", "haapi-gateway",
        ] {
            names[name] = gateway
        }
        names["demo-node"] = "the demo's stickiness cookie"
        names["invalid-request"] = "the demo's own problem type (`--redirect-uri-refusal invalid-request-problem`), marked so"
        names["https://curity.se/problems/invalid-request"] = names["invalid-request"]
        names["invalid-request-problem"] = "a value of the demo's `--redirect-uri-refusal`"
        let samples = "the name of one of Curity's HAAPI sample representations (notes, samples/), not a setting"
        for name in ["email-otp-form", "action-reset-password", "duo-select-device"] { names[name] = samples }
        return names
    }()

    /// The names `text` writes as Curity's that neither ``CurityNames`` nor ``notCurity`` has, in order, each once.
    static func unknownNames(in text: String) -> [String] {
        var unknown: [String] = []
        func report(_ name: String) { if !unknown.contains(name) { unknown.append(name) } }
        let problemTypes = CurityNames.names(of: .problemType)
        for match in text.matches(of: /https:\/\/curity\.(?:se|io)\/problems\/[a-z0-9-]+/) {
            let name = String(match.output)
            if !problemTypes.contains(name) && notCurity[name] == nil { report(name) }
        }
        let problemTails = Set(problemTypes.compactMap { $0.split(separator: "/").last.map(String.init) })
        let segments = CurityNames.knownSegments
        let errors = CurityNames.names(of: .error)
        func known(_ element: String) -> Bool {
            segments.contains(element) || problemTails.contains(element) || notCurity[element] != nil
        }
        for match in text.matches(of: /`([^`\n]+)`/) {
            let span = String(match.output.1)
            let mediaType = ["application/", "image/", "text/"].contains { span.hasPrefix($0) }
            if span.contains(where: { " .:=…".contains($0) || $0.isUppercase }) || span.hasPrefix("-") || mediaType { continue }
            if span.wholeMatch(of: /(<[a-z0-9-]+>)+/) != nil {
                for element in span.split(whereSeparator: { $0 == "<" || $0 == ">" }).map(String.init) where !known(element) {
                    report(element)
                }
            } else if span.contains("/") {
                guard !span.hasPrefix("/") || span.hasPrefix("/profiles/") || span.hasPrefix("/environments/") else { continue }
                for element in CurityName.segments(of: span) where !known(element) { report(element) }
            } else if span.wholeMatch(of: /[a-z0-9]+(-[a-z0-9]+)+/) != nil {
                if !known(span) { report(span) }
            } else if span.wholeMatch(of: /[a-z0-9]+(_[a-z0-9]+)+/) != nil {
                if !errors.contains(span) && notCurity[span] == nil { report(span) }
            }
        }
        return unknown
    }
}
