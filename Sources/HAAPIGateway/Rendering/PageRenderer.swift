import Foundation
import HTTPTypes
import Hummingbird

/// Renders whole pages from the compiled templates, in the language chosen for the request. Every context carries
/// `lang` (the page's language) and `t` (the gateway's texts in that language).
struct PageRenderer: Sendable {
    let templates: TemplateLibrary
    var defaultPollSeconds = 2
    /// Where "Continue" leads after sign-in (`completion.redirectURL`), if anywhere.
    var completionURL: URL?
    /// Kiosk mode: every page returns to the start by itself.
    var kiosk = KioskSettings()
    /// Product name, logo and colours.
    var theme = ThemeSettings()
    /// The host of `server.publicURL`, when configured: WebAuthn runs on the page only for relying parties of this host.
    var publicHost: String?

    /// The templates of pages that end a sign-in (in kiosk mode they return to the start after `resetAfterSeconds`).
    private static let finalTemplates: Set<String> = ["signed-in", "message"]

    var messages: MessageCatalogue { templates.messages }

    /// The language for a request's `Accept-Language`.
    func language(for request: Request) -> String {
        messages.language(for: request.headers[.acceptLanguage])
    }

    /// The page for a session's current state; `requestHost` (the request's authority) stands in for the public host
    /// when none is configured.
    func page(for snapshot: SessionSnapshot, language: String, requestHost: String? = nil) -> String {
        switch snapshot.phase {
        case .confirming(let code, let hostName):
            return render(
                [
                    "title": messages.text(.pairTitle, language: language), "notices": [String](), "code": code,
                    "check": messages.text(.pairCheck, language: language, arguments: ["host": hostName]), "csrf": snapshot.csrfToken,
                ], template: "pair", language: language)
        case .signedIn:
            return render(
                [
                    "title": messages.text(.signedInTitle, language: language), "notices": [String](), "hasContinue": completionURL != nil,
                    "continueURL": completionURL?.absoluteString ?? "", "deliveryDelayed": snapshot.deliveryDelayed,
                ], template: "signed-in", language: language)
        case .failed(let message):
            return messagePage(title: .gateway(.signInFailedTitle), message: message, startAgain: true, language: language)
        case .cancelled:
            return messagePage(title: .gateway(.cancelledTitle), message: .gateway(.cancelledText), startAgain: true, language: language)
        case .step:
            guard let step = snapshot.step else {
                return messagePage(title: .gateway(.signInFailedTitle), message: .gateway(.signInNotStarted), startAgain: true, language: language)
            }
            let builder = StepPageBuilder(
                snapshot: snapshot, messages: messages, language: language, defaultPollSeconds: defaultPollSeconds, autocomplete: !kiosk.enabled,
                gatewayHost: publicHost ?? requestHost.flatMap(WebAuthnOperationContext.hostName(ofAuthority:)))
            let context = builder.context(for: step)
            let name = StepPageBuilder.templateCandidates(for: step).first { templates.names.contains($0) } ?? "step"
            return render(context, template: name, language: language)
        }
    }

    /// "Cancel sign-in?" with a confirming form.
    func cancelConfirmationPage(csrfToken: String, language: String) -> String {
        render(["title": messages.text(.cancelTitle, language: language), "csrf": csrfToken, "notices": [String]()], template: "cancel", language: language)
    }

    /// A page with a title, a message and optionally "Start again" / "Try again".
    func messagePage(title: PageText, message: PageText, startAgain: Bool = false, tryAgain: Bool = false, language: String) -> String {
        render(
            [
                "title": messages.text(title, language: language), "message": messages.text(message, language: language), "startAgain": startAgain,
                "tryAgain": tryAgain, "notices": [String](),
            ], template: "message", language: language)
    }

    private func render(_ context: [String: Any], template: String, language: String) -> String {
        var context = context
        context["lang"] = language
        context["t"] = messages.strings(for: language)
        context["productName"] = theme.productName
        context["hasProductName"] = !theme.productName.isEmpty
        context["hasLogo"] = theme.logo != nil
        context["hasBrand"] = theme.logo != nil || !theme.productName.isEmpty
        if kiosk.enabled, context["hasRefresh"] as? Bool != true {
            let seconds = Self.finalTemplates.contains(template) ? kiosk.resetAfterSeconds : kiosk.idleResetSeconds
            context["hasRefresh"] = true
            context["refreshSeconds"] = String(seconds)
            context["refreshURL"] = "/kiosk/next"
        }
        return templates.render(context, template: template) ?? "<!DOCTYPE html><html lang=\"en\"><title>Error</title><h1>Error</h1></html>"
    }

    /// An HTML response.
    static func response(_ html: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
