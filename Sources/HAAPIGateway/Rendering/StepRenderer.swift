import Foundation
import HAAPI

/// Renders a single HAAPI step to the HTML page the gateway would serve for it (for `haapi-gateway render` and tests).
public struct StepRenderer: Sendable {
    let renderer: PageRenderer

    /// Loads and checks the templates.
    /// - Throws: ``GatewayError`` when templates are missing or do not parse.
    public init(templates: TemplateSettings = .init()) throws(GatewayError) {
        self.renderer = PageRenderer(templates: try TemplateLibrary(settings: templates))
    }

    /// The page for `step` as step version 1 of a session (a placeholder CSRF token).
    public func render(_ step: Representation) -> String {
        let snapshot = SessionSnapshot(
            phase: .step, step: step, version: 1, csrfToken: "CSRF", notices: [], fieldErrors: [:], values: [:])
        return renderer.page(for: snapshot)
    }

    /// The page for a HAAPI response document (a step, or a problem shown as a message page).
    /// - Throws: `HAAPIError` when the document is not a HAAPI step or problem.
    public func render(json data: Data) throws -> String {
        let json = try JSONValue.parse(data)
        let type = json["type"]?.stringValue ?? ""
        if type.hasPrefix("https://") || type.hasPrefix("http://") {
            let texts = (json["messages"]?.arrayValue ?? []).compactMap { $0["text"]?.scalarText }
            let message = ([json["title"]?.scalarText].compactMap { $0 } + texts).joined(separator: " ")
            return renderer.messagePage(title: "Sign-in problem", message: message.isEmpty ? "The sign-in service reported a problem." : message)
        }
        return render(try Representation(json: json))
    }
}
