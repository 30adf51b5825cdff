import Foundation

/// The compiled page templates: the defaults directory with an optional override directory layered over it file by
/// file. Compiled once at startup (see ``TemplateParser``); required templates are checked then.
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

    /// Loads and compiles the templates.
    /// - Throws: ``GatewayError`` naming the missing directory, the missing templates or the file that does not parse.
    init(settings: TemplateSettings) throws(GatewayError) {
        guard let directory = settings.directory ?? Self.defaultDirectory() else {
            throw GatewayError(
                .unreadableInput,
                """
                no templates directory: set \(ConfigurationKey.templatesDirectory.path) or --templates DIR (looked for ./templates and templates/ \
                next to the executable or above it)
                """
            )
        }
        var sources = try Self.read(directory: directory)
        var assets = try StaticAsset.load(directory: directory.appendingPathComponent("assets"))
        if let overrides = settings.overrideDirectory {
            sources.merge(try Self.read(directory: overrides)) { _, override in override }
            assets.merge(try StaticAsset.load(directory: overrides.appendingPathComponent("assets"))) { _, override in override }
        }
        let missing =
            Self.required.filter { sources[$0] == nil }.map { "\($0).mustache" }
            + Self.requiredAssets.filter { assets[$0] == nil }.map { "assets/\($0)" }
        guard missing.isEmpty else {
            throw GatewayError(.unreadableInput, "missing templates in \(directory.path): \(missing.joined(separator: ", "))")
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
        self.messages = try MessageCatalogue.load(directories: [directory] + (settings.overrideDirectory.map { [$0] } ?? []))
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

    /// `templates/` in the current directory, else next to the executable (or up to three levels up). The executable is
    /// the file running (`Bundle.main`, symlinks resolved), not the program's name as run: a program found on `PATH`
    /// (kubectl's exec plugin, Docker's `docker-credential-<name>`, a shell) has only its name there.
    static func defaultDirectory() -> URL? {
        let fileManager = FileManager.default
        var candidates = [URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent("templates")]
        let running = Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments.first ?? "")
        let executable = running.resolvingSymlinksInPath().deletingLastPathComponent()
        // Next to the executable, or up to three levels above it (`.build/<triple>/debug/haapi-gateway` in a checkout).
        var directory = executable
        for _ in 0...3 {
            candidates.append(directory.appendingPathComponent("templates"))
            directory.deleteLastPathComponent()
        }
        return candidates.first { isDirectory($0) }
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func read(directory: URL) throws(GatewayError) -> [String: String] {
        guard isDirectory(directory) else {
            let why =
                switch FileAccess.reason(reading: directory.path, directory: true) {
                case nil: "is not a directory"
                case "it does not exist"?: "does not exist"
                case let reason?: "cannot be read: \(reason)"
                }
            throw GatewayError(.unreadableInput, "templates directory \(directory.path) \(why)")
        }
        let files: [String]
        do {
            files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        } catch {
            throw GatewayError(.unreadableInput, "cannot list templates directory \(directory.path)")
        }
        var sources: [String: String] = [:]
        for file in files where file.hasSuffix(".mustache") {
            guard let text = try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8) else {
                throw GatewayError(.unreadableInput, "cannot read template \(file)")
            }
            sources[String(file.dropLast(".mustache".count))] = text
        }
        return sources
    }
}
