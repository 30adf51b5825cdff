import ArgumentParser
import Foundation
import HAAPIGateway

/// `haapi-gateway render STEP.json`: prints the HTML page the gateway would render for a HAAPI step.
struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the HTML page the gateway renders for a HAAPI step (a JSON file)."
    )

    @Argument(help: "A HAAPI step or problem (JSON).")
    var step: String

    @Option(help: "A configuration file whose templates and theme sections apply (flags and HAAPI_GATEWAY_* variables win as for serve).")
    var config: String?

    @Option(help: .valued("DIR", "Write DIR/index.html and DIR/assets/ (stylesheet, theme.css, scripts, logo) instead of printing the page, so it can be opened styled, e.g. with python3 -m http.server -d DIR."))
    var output: String?

    @Option(help: "Templates directory used instead of the built-in templates.")
    var templates: String?

    @Option(name: .customLong("template-overrides"), help: "Directory of templates layered over the defaults, file by file.")
    var templateOverrides: String?

    @Option(help: .valued("locale", "Language of the gateway's own texts (a tag such as sv, or an Accept-Language value); default en."))
    var locale: String?

    func run() async throws {
        let configuration: GatewayConfiguration
        do {
            configuration = try GatewayConfiguration.load(
                file: config,
                flags: [
                    (.templatesDirectory, "--templates", templates.map { .scalar($0) }),
                    (.templatesOverrideDirectory, "--template-overrides", templateOverrides.map { .scalar($0) }),
                ]
            )
        } catch {
            let lines = ["haapi-gateway: the configuration has problems:"] + error.problems.map { "  - \($0)" }
            FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8))
            throw ExitCode(78)
        }
        let renderer = try StepRenderer(templates: configuration.templates, theme: configuration.theme)
        let page = try renderer.render(json: try Data(contentsOf: URL(fileURLWithPath: step)), locale: locale)
        guard let output else {
            FileHandle.standardOutput.write(Data(page.utf8))
            return
        }
        print(try renderer.write(page, to: URL(fileURLWithPath: output)))
    }
}
