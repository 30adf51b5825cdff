import Foundation
import HAAPI

extension UpstreamDoctor {
    /// The return URL an external browser comes back to, which the client must register.
    func externalBrowser() -> DoctorCheck {
        let client = CuritySetting.redirectURIs(configuration.clientID)
        guard let url = externalBrowserReturnURL else {
            return .note(
                "external-browser",
                "an authenticator that opens an external browser sends it back to <the gateway's origin>\(StepPageBuilder.externalBrowserReturnPath); without \(ConfigurationKey.serverPublicURL.path) that origin is whatever the browser used.",
                fix:
                    "set \(ConfigurationKey.serverPublicURL.path), then register <it>\(StepPageBuilder.externalBrowserReturnPath) in \(client)."
            )
        }
        return .note(
            "external-browser",
            "an authenticator that opens an external browser sends it back to \(url) (the gateway appends it as redirect_uri, as Curity's SDKs append their registered one).",
            fix: "register \(url) in \(client) (\(CuritySetting.adminUI(configuration.clientID, CuritySetting.redirectURIPlaces)))."
        )
    }

    /// A reminder while `upstream.bindTokensToDPoP` is false: whether the client has token-bound codes shows only at the
    /// first code exchange.
    func tokenBinding() -> DoctorCheck? {
        guard !configuration.bindTokensToDPoP else { return nil }
        return .note(
            "token-bound-codes",
            "\(ConfigurationKey.upstreamBindTokensToDPoP.path) is false: a server with token-bound codes, or (Curity 11.4 and later) one that requires a DPoP proof on token requests, refuses the first code exchange without a proof, and the gateway proves and retries.",
            fix:
                "if the client has \(CuritySetting.tokenBoundCodes(configuration.clientID)) = true (which requires \(CurityNames.useLegacyDPoP) false), or \(CuritySetting.tokenDPoPBinding(configuration.clientID)) is \(CurityNames.dpopRequired), set \(ConfigurationKey.upstreamBindTokensToDPoP.path): true."
        )
    }

    static func describe(_ step: Representation) -> String {
        let actions = step.actions.map { action -> String in
            let title = (action.title ?? action.form?.actionTitle).map { " \"\(DoctorText.quoted($0))\"" } ?? ""
            if let options = action.selectorOptions {
                let names = options.prefix(8).map { DoctorText.quoted($0.title ?? $0.kind.rawValue) }.joined(separator: ", ")
                return "a choice of \(options.count)\(title) (\(names)\(options.count > 8 ? ", …" : ""))"
            }
            return "\(action.template) \(action.kind.rawValue)\(title)"
        }
        return "\(step.type.rawValue)" + (actions.isEmpty ? "" : ": " + actions.joined(separator: "; ")) + "."
    }

    static func describe(_ problem: Problem) -> String {
        let text = ([problem.title] + problem.messages.map(\.text) as [String?]).compactMap { $0 }.map(DoctorText.quoted).joined(separator: " ")
        return "\(problem.type)" + (text.isEmpty ? "" : " (\(text))")
    }
}
