import Foundation
import HTTPTypes
import Hummingbird

/// Renders whole pages from the compiled templates.
struct PageRenderer: Sendable {
    let templates: TemplateLibrary
    var defaultPollSeconds = 2
    /// Where "Continue" leads after sign-in (`completion.redirectURL`), if anywhere.
    var completionURL: URL?

    /// The page for a session's current state.
    func page(for snapshot: SessionSnapshot) -> String {
        switch snapshot.phase {
        case .signedIn:
            return render(
                ["title": "Signed in", "notices": [String](), "hasContinue": completionURL != nil, "continueURL": completionURL?.absoluteString ?? ""],
                template: "signed-in")
        case .failed(let message):
            return messagePage(title: "Sign-in failed", message: message, startAgain: true)
        case .cancelled:
            return messagePage(title: "Sign-in cancelled", message: "The sign-in was cancelled.", startAgain: true)
        case .step:
            guard let step = snapshot.step else {
                return messagePage(title: "Sign-in failed", message: "The sign-in could not be started.", startAgain: true)
            }
            let builder = StepPageBuilder(snapshot: snapshot, defaultPollSeconds: defaultPollSeconds)
            let context = builder.context(for: step)
            let name = StepPageBuilder.templateCandidates(for: step).first { templates.names.contains($0) } ?? "step"
            return render(context, template: name)
        }
    }

    /// "Cancel signing in?" with a confirming form.
    func cancelConfirmationPage(csrfToken: String) -> String {
        render(["title": "Cancel sign-in?", "csrf": csrfToken, "notices": [String]()], template: "cancel")
    }

    /// A page with a title, a message and optionally "Start again" / "Try again".
    func messagePage(title: String, message: String, startAgain: Bool = false, tryAgain: Bool = false) -> String {
        render(["title": title, "message": message, "startAgain": startAgain, "tryAgain": tryAgain, "notices": [String]()], template: "message")
    }

    private func render(_ context: [String: Any], template: String) -> String {
        templates.render(context, template: template) ?? "<!DOCTYPE html><html lang=\"en\"><title>Error</title><h1>Error</h1></html>"
    }

    /// An HTML response.
    static func response(_ html: String, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]) -> Response {
        var fields = headers
        fields[.contentType] = "text/html; charset=utf-8"
        return Response(status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}
