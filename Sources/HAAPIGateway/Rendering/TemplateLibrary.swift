import Foundation

/// The compiled page templates: the built-in templates (or `templates.directory`) with an optional override directory
/// layered over them file by file. Compiled once at startup (see ``TemplateParser``); required templates are checked then.
struct TemplateLibrary: Sendable {
    /// Templates every deployment needs.
    static let required = ["header", "footer", "form", "step", "signed-in", "message", "cancel", "pair", "device", "webauthn"]
    /// Assets every deployment needs (in `assets/`).
    static let requiredAssets = ["gateway.css", "webauthn.js"]

    /// The compiled templates, their partials resolved.
    let templates: TemplateSet
    /// The templates' names.
    let names: Set<String>
    /// The templates that use `haapi` (the whole step as the upstream sent it), themselves or through a partial: only
    /// their pages carry it.
    let showingStepJSON: Set<String>
    /// The files served at `/assets/{name}`, by name.
    let assets: [String: StaticAsset]
    /// The gateway's texts (`messages/<lang>.json`), layered the same way.
    let messages: MessageCatalogue
    /// What keeps the pages from rendering, or nil when each renders to something (an override that renders nothing,
    /// say): found once, since the templates never change after loading; readiness reports it.
    let renderingProblem: String?

    /// Loads and compiles the templates: `templates.directory`, else the built-in templates, with
    /// `templates.overrideDirectory` layered over them file by file (the messages key by key).
    /// - Throws: ``GatewayError`` naming the missing directory, the missing templates or the file that does not parse.
    init(settings: TemplateSettings) throws(GatewayError) {
        var layers = [try settings.directory.map { url throws(GatewayError) in try TemplateFiles.reading(directory: url) } ?? .builtIn]
        if let overrides = settings.overrideDirectory { layers.append(try TemplateFiles.reading(directory: overrides)) }
        var sources: [String: String] = [:]
        var assets: [String: StaticAsset] = [:]
        for layer in layers {
            for (name, data) in layer.pages {
                guard let text = String(data: data, encoding: .utf8) else {
                    throw GatewayError(.unreadableInput, "template \(name).mustache in \(layer.origin) is not UTF-8 text")
                }
                sources[name] = text
            }
            assets.merge(StaticAsset.servable(layer.folder("assets"))) { _, override in override }
        }
        let missing =
            Self.required.filter { sources[$0] == nil }.map { "\($0).mustache" }
            + Self.requiredAssets.filter { assets[$0] == nil }.map { "assets/\($0)" }
        guard missing.isEmpty else {
            throw GatewayError(.unreadableInput, "missing templates in \(layers[0].origin): \(missing.joined(separator: ", "))")
        }
        var templates: [String: [TemplateNode]] = [:]
        for (name, source) in sources {
            do {
                templates[name] = try TemplateParser.parse(source)
            } catch {
                throw GatewayError(.configuration, "template \(name).mustache does not parse: \(error)")
            }
        }
        let compiled = TemplateSet(templates)
        self.templates = compiled
        self.names = Set(templates.keys)
        self.showingStepJSON = Set(templates.filter { $0.value.references("haapi", templates: templates) }.keys)
        self.assets = assets
        self.messages = try MessageCatalogue.load(layers: layers)
        let empty = Self.pages.filter { name in
            TemplateLibrary.render([:], template: name, in: compiled).map { $0.allSatisfy(\.isWhitespace) } ?? true
        }
        self.renderingProblem = empty.isEmpty ? nil : "\(empty.map { "\($0).mustache" }.joined(separator: ", ")) renders no page"
    }

    /// The pages a person can be shown: each must render to a page (readiness checks it).
    static let pages = ["step", "signed-in", "message", "cancel", "pair", "device"]

    /// Renders a template; nil when it does not exist.
    func render(_ context: TemplateObject, template name: String) -> String? {
        Self.render(context, template: name, in: templates)
    }

    private static func render(_ context: TemplateObject, template name: String, in templates: TemplateSet) -> String? {
        templates.render(name, context: .object(context)).map { String(decoding: $0, as: UTF8.self) }
    }
}
