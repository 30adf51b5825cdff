import Foundation
import HAAPI

/// Renders a single HAAPI step to the HTML page the gateway would serve for it (for `haapi-gateway render` and tests).
public struct StepRenderer: Sendable {
    let renderer: PageRenderer

    /// Loads and checks the templates.
    /// - Parameters:
    ///   - templates: Where the templates come from.
    ///   - theme: The product name, logo and colours of the pages.
    /// - Throws: ``GatewayError`` when templates are missing or do not parse.
    public init(templates: TemplateSettings = .init(), theme: ThemeSettings = .init()) throws(GatewayError) {
        self.renderer = PageRenderer(templates: try TemplateLibrary(settings: templates), theme: theme)
    }

    /// Every file the pages load from `/assets/`, by name: the templates' assets, `theme.css` and the logo, if any (so
    /// that a rendered page can be looked at, styled, from a directory of its own).
    public var assetFiles: [String: Data] {
        var files = renderer.templates.assets.mapValues(\.bytes)
        files[AssetController.themeStylesheetName] = Data(ThemeStylesheet.css(for: renderer.theme).utf8)
        if let logo = renderer.theme.logo { files[AssetController.logoName] = logo.bytes }
        return files
    }

    /// The languages of the message catalogues, English first.
    public var languages: [String] { renderer.messages.languages }

    /// The page for `step` as step version 1 of a session (a placeholder CSRF token).
    /// - Parameters:
    ///   - step: The step.
    ///   - locale: An `Accept-Language` value or language tag; the gateway's texts are in the best available language.
    public func render(_ step: Representation, locale: String? = nil) -> String {
        let snapshot = SessionSnapshot(
            phase: .step,
            step: step,
            version: 1,
            csrfToken: "CSRF",
            notices: [],
            fieldErrors: [:],
            values: [:]
        )
        return renderer.page(for: snapshot, language: renderer.messages.language(for: locale))
    }

    /// The page for a HAAPI response document (a step, or a problem shown as a message page with its title, messages,
    /// invalid fields and links, as a problem that ends a sign-in is shown).
    /// - Throws: `HAAPIError` when the document is not a HAAPI step or problem.
    public func render(json data: Data, locale: String? = nil) throws -> String {
        let language = renderer.messages.language(for: locale)
        let json = try JSONValue.parse(data)
        let type = json["type"]?.stringValue ?? ""
        if type.hasPrefix("https://") || type.hasPrefix("http://") {
            let problem = try Problem(json: json, httpStatus: 400)
            let fields = problem.invalidFields.map { field in
                renderer.messages.text(
                    .fieldNotOnPage,
                    language: language,
                    arguments: ["field": field.name, "reason": field.detail ?? field.reason ?? "invalidValue"]
                )
            }
            let message = ([problem.title].compactMap { $0 } + problem.messages.map(\.text) + fields).joined(separator: " ")
            let links: [TemplateObject] = problem.links.filter { !$0.isImage }.enumerated().map { index, link in
                ["action": "/problem/link/\(index)", "title": .string(link.title ?? link.rel), "csrf": "CSRF"]
            }
            return renderer.messagePage(
                title: .gateway(.problemTitle),
                message: message.isEmpty ? .gateway(.problemText) : .upstream(message),
                links: links,
                language: language
            )
        }
        return render(try Representation(json: json), locale: language)
    }
}
