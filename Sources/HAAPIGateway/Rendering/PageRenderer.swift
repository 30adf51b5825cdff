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

    /// The templates of pages that end a sign-in (in kiosk mode they return to the start after `resetAfterSeconds`).
    private static let finalTemplates: Set<String> = ["signed-in", "message"]

    var messages: MessageCatalogue { templates.messages }

    /// The language for a request's `Accept-Language`.
    func language(for request: Request) -> String {
        messages.language(for: request.headers[.acceptLanguage])
    }

    /// The page for a session's current state.
    /// - Parameters:
    ///   - snapshot: The session's state.
    ///   - language: The page's language.
    ///   - origin: The gateway's origin as the browser reaches it (for an external browser's return address), if known.
    func page(for snapshot: SessionSnapshot, language: String, origin: String? = nil) -> String {
        page(for: snapshot, language: language, origin: origin, extra: [:])
    }

    /// The current step's page where an external browser has come back with its resume code: the code is filled into
    /// the resume form, and the page's script hands it to the tab that opened the browser (which posts it) when there is
    /// one; otherwise the person continues here.
    func externalBrowserReturnPage(for snapshot: SessionSnapshot, resumeCode: String, language: String, origin: String?) -> String {
        page(
            for: snapshot,
            language: language,
            origin: origin,
            extra: ["hasResumeCode": true, "resumeCode": .string(resumeCode), "scripts": ["external-browser-return.js"]]
        )
    }

    private func page(for snapshot: SessionSnapshot, language: String, origin: String?, extra: TemplateObject) -> String {
        switch snapshot.phase {
        case .confirming(let code, let hostName):
            return pairingPage(
                code: code,
                hostName: hostName,
                actions: (confirm: "/pair/confirm", cancel: "/cancel/confirm"),
                csrfToken: snapshot.csrfToken,
                language: language
            )
        case .signedIn:
            // A device's sign-in ends here: the person goes back to the device, which collects the tokens.
            let continueURL = snapshot.deviceName == nil ? completionURL : nil
            return render(
                [
                    "title": .string(messages.text(.signedInTitle, language: language)), "notices": [], "hasContinue": .bool(continueURL != nil),
                    "continueURL": .string(continueURL?.absoluteString ?? ""), "deliveryDelayed": .bool(snapshot.deliveryDelayed),
                    "hasDevice": .bool(snapshot.deviceName != nil),
                    "backToDevice": .string(
                        snapshot.deviceName.map { messages.text(.deviceSignedIn, language: language, arguments: ["device": $0]) } ?? ""
                    ),
                ],
                template: "signed-in",
                language: language
            )
        case .failed(let message):
            let links: [TemplateObject] = snapshot.problemLinks.enumerated().map { index, link in
                ["action": "/problem/link/\(index)", "title": .string(link.title ?? link.rel), "csrf": .string(snapshot.csrfToken)]
            }
            return messagePage(title: .gateway(.signInFailedTitle), message: message, startAgain: true, links: links, language: language)
        case .cancelled:
            return messagePage(title: .gateway(.cancelledTitle), message: .gateway(.cancelledText), startAgain: true, language: language)
        case .step:
            guard let step = snapshot.step else {
                return messagePage(title: .gateway(.signInFailedTitle), message: .gateway(.signInNotStarted), startAgain: true, language: language)
            }
            let builder = StepPageBuilder(
                snapshot: snapshot,
                messages: messages,
                language: language,
                defaultPollSeconds: defaultPollSeconds,
                autocomplete: !kiosk.enabled,
                origin: origin
            )
            var context = builder.context(for: step).merging(extra) { _, new in new }
            let name = StepPageBuilder.templateCandidates(for: step).first { templates.names.contains($0) } ?? "step"
            // Every member of the step (properties, each action's, field's, message's and link's own members, members the
            // gateway does not know), for a designer's override; built only for a template that uses it.
            if templates.showingStepJSON.contains(name) { context["haapi"] = TemplateValue(json: step.raw) }
            return render(context, template: name, language: language)
        }
    }

    /// The verification page of the device authorization grant: the code entry form (prefilled from
    /// `verification_uri_complete`), with a notice after a wrong code.
    func deviceCodeEntryPage(userCode: String, csrfToken: String, notice: PageText? = nil, language: String) -> String {
        render(
            [
                "title": .string(messages.text(.deviceTitle, language: language)), "entering": true, "userCode": .string(userCode),
                "csrf": .string(csrfToken), "notices": .list(notice.map { [.string(messages.text($0, language: language))] } ?? []),
            ],
            template: "device",
            language: language
        )
    }

    /// Which device asks and the code to compare before anything starts (RFC 8628 §5.4, remote phishing).
    func deviceConfirmationPage(deviceName: String, userCode: String, csrfToken: String, language: String) -> String {
        render(
            [
                "title": .string(messages.text(.deviceConfirmTitle, language: language)), "confirming": true, "userCode": .string(userCode),
                "check": .string(messages.text(.deviceCheck, language: language, arguments: ["device": deviceName])), "csrf": .string(csrfToken),
                "notices": [],
            ],
            template: "device",
            language: language
        )
    }

    /// `login` mode's code to compare with the terminal's, and whether to go on: on the single-use link's own page
    /// (posting to the link, which nothing but that post uses up) or, once a sign-in holds it, on the sign-in's page.
    func pairingPage(code: String, hostName: String, actions: (confirm: String, cancel: String), csrfToken: String, language: String) -> String {
        render(
            [
                "title": .string(messages.text(.pairTitle, language: language)), "notices": [], "code": .string(code),
                "check": .string(messages.text(.pairCheck, language: language, arguments: ["host": hostName])),
                "csrf": .string(csrfToken), "confirmAction": .string(actions.confirm), "cancelAction": .string(actions.cancel),
            ],
            template: "pair",
            language: language
        )
    }

    /// A signed start link's page: a button that starts the sign-in by posting the link (`action`), which nothing but
    /// that post uses up (a link preview's fetch leaves it working).
    func startLinkPage(action: String, language: String) -> String {
        messagePage(
            title: .gateway(.signInTitle),
            message: .gateway(.startLinkReady),
            links: [["action": .string(action), "title": .string(messages.text(.startLinkContinue, language: language)), "csrf": ""]],
            language: language
        )
    }

    /// "Cancel sign-in?" with a confirming form.
    func cancelConfirmationPage(csrfToken: String, language: String) -> String {
        render(
            ["title": .string(messages.text(.cancelTitle, language: language)), "csrf": .string(csrfToken), "notices": []],
            template: "cancel",
            language: language
        )
    }

    /// A page with a title, a message and optionally "Start again" / "Try again".
    /// - Parameters:
    ///   - links: Buttons that post to the gateway (a problem's links), each with `action`, `title` and `csrf`.
    ///   - retryAfterSeconds: The `Retry-After` the page is sent with, if the message is to end by saying when to try
    ///     again (a 429's: "You can try again in 4 minutes and 10 seconds.").
    func messagePage(
        title: PageText,
        message: PageText,
        startAgain: Bool = false,
        tryAgain: Bool = false,
        links: [TemplateObject] = [],
        retryAfterSeconds: Int? = nil,
        language: String
    ) -> String {
        var text = messages.text(message, language: language)
        if let retryAfterSeconds { text += " " + messages.retryIn(seconds: retryAfterSeconds, language: language) }
        return render(
            [
                "title": .string(messages.text(title, language: language)), "message": .string(text),
                "startAgain": .bool(startAgain), "tryAgain": .bool(tryAgain), "notices": [], "links": .list(links),
            ],
            template: "message",
            language: language
        )
    }

    private func render(_ context: TemplateObject, template: String, language: String) -> String {
        var context = context
        context["lang"] = .string(language)
        context["t"] = messages.templateStrings(for: language)
        context["productName"] = .string(theme.productName)
        context["hasProductName"] = .bool(!theme.productName.isEmpty)
        context["hasLogo"] = .bool(theme.logo != nil)
        context["hasBrand"] = .bool(theme.logo != nil || !theme.productName.isEmpty)
        if kiosk.enabled, context["hasRefresh"] != true {
            let seconds = Self.finalTemplates.contains(template) ? kiosk.resetAfterSeconds : kiosk.idleResetSeconds
            context["hasRefresh"] = true
            context["refreshSeconds"] = .string(String(seconds))
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
