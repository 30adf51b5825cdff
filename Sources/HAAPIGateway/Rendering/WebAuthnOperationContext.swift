import Foundation
import HAAPI

/// The template context of a `webauthn-registration` or `webauthn-authentication` client operation.
///
/// The browser can run the ceremony on the gateway's page only when the relying-party id is the gateway's host (or a
/// parent domain of it) and is a name, not an IP address. Then the page gets a form for the continue action with the
/// options in a `data-` attribute and a hidden field for the credential, which `assets/webauthn.js` fills; without
/// JavaScript, or when the ids do not match, the page says so and offers only the operation's error actions.
struct WebAuthnOperationContext {
    let operation: ClientOperation
    let title: String?
    /// The client operation's address; its continue actions are `c0`, `c1`, ...
    let address: ActionAddress
    let snapshot: SessionSnapshot
    /// The host of the gateway's origin as the browser reaches it (`server.publicURL`, else the request's Host).
    let gatewayHost: String?

    /// Options member of the arguments and the context field it fills, in order of preference.
    static let registrationOptions = [
        ("credentialCreationOptions", "credential"), ("platformCredentialCreationOptions", "platformCredential"),
        ("crossPlatformCredentialCreationOptions", "crossPlatformCredential"),
    ]
    static let authenticationOptions = [("credentialRequestOptions", "credential")]

    /// The form's target, the options (`publicKey` member) as JSON and the field for the credential, when the ceremony
    /// can run on the gateway's page.
    struct Ceremony {
        let kind: String
        let action: String
        let optionsJSON: String
        let fieldName: String
    }

    /// - Parameters:
    ///   - text: The gateway's text for a key.
    ///   - fieldError: The error of the last submission for a field name (the upstream refused the credential), if any.
    func context(text: (MessageKey, [String: String]) -> String, fieldError: (String) -> String?) -> TemplateObject {
        let error = (Self.registrationOptions + Self.authenticationOptions).compactMap { fieldError($0.1) }.first
        var context: TemplateObject = [
            "isWebAuthn": true,
            "hasPasskeyError": .bool(error != nil),
            "passkeyError": .string(error ?? ""),
            "title": .string(title ?? text(.passkeyTitle, [:])),
            "hasFallbacks": .bool(!operation.errorActions.isEmpty),
            "otherWays": .string(text(.otherWays, [:])),
        ]
        guard let ceremony = ceremony() else {
            context["title"] = .string(text(.unsupportedOperationTitle, [:]))
            context["passkeyUnavailable"] = .string(text(.passkeyUnavailable, [:]))
            return context
        }
        let isRegistration = ceremony.kind == "create"
        context["webAuthnPossible"] = true
        context["ceremony"] = .string(ceremony.kind)
        context["ceremonyAction"] = .string(ceremony.action)
        context["optionsJSON"] = .string(ceremony.optionsJSON)
        context["credentialField"] = .string(ceremony.fieldName)
        context["csrf"] = .string(snapshot.csrfToken)
        context["passkeyButton"] = .string(title ?? text(isRegistration ? .passkeyCreate : .passkeyUse, [:]))
        context["passkeyNoScript"] = .string(text(.passkeyNoScript, [:]))
        context["passkeyWorking"] = .string(text(.passkeyWorking, [:]))
        context["passkeyCancelled"] = .string(text(.passkeyCancelled, [:]))
        context["passkeyUnsupported"] = .string(text(.passkeyUnsupported, [:]))
        context["passkeyFailed"] = .string(text(.passkeyFailed, [:]))
        return context
    }

    /// The ceremony to run, or nil when this page cannot run it.
    func ceremony() -> Ceremony? {
        let isRegistration = operation.name == ClientOperation.Name.webAuthnRegistration
        for (member, fieldName) in isRegistration ? Self.registrationOptions : Self.authenticationOptions {
            guard let publicKey = operation.arguments?[member]?["publicKey"], case .object = publicKey else { continue }
            let relyingPartyID = isRegistration ? publicKey["rp"]?["id"]?.stringValue : publicKey["rpId"]?.stringValue
            guard let relyingPartyID, Self.relyingPartyID(relyingPartyID, matches: gatewayHost) else { return nil }
            guard let index = operation.continueActions.firstIndex(where: { Self.fills(fieldName, $0) }),
                let json = try? publicKey.encodedData()
            else { continue }
            return Ceremony(
                kind: isRegistration ? "create" : "get",
                action: "/step/\(snapshot.version)/action/\(address.appending("c\(index)"))",
                optionsJSON: String(decoding: json, as: UTF8.self),
                fieldName: fieldName
            )
        }
        return nil
    }

    /// Whether a continue action is a JSON form with the context field.
    private static func fills(_ fieldName: String, _ action: Action) -> Bool {
        guard let form = action.form, form.isJSON else { return false }
        return form.fields.contains { $0.name == fieldName && $0.type == .context }
    }

    /// Whether a browser on `host` may use `relyingPartyID` (WebAuthn Level 2 §5.1.3, §5.1.4): the same name or a parent
    /// domain of it, never an IP address.
    static func relyingPartyID(_ relyingPartyID: String, matches host: String?) -> Bool {
        guard let host = host?.lowercased(), !host.isEmpty else { return false }
        let id = relyingPartyID.lowercased()
        guard !id.isEmpty, !isIPAddress(host), !isIPAddress(id) else { return false }
        return host == id || host.hasSuffix("." + id)
    }

    private static func isIPAddress(_ host: String) -> Bool {
        host.contains(":") || (host.split(separator: ".").count == 4 && host.split(separator: ".").allSatisfy { UInt8($0) != nil })
    }
}
