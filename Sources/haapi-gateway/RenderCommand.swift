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

    @Option(help: .init(GatewayOptionHelp.config))
    var config: String?

    @Option(help: .valued("DIR", GatewayOptionHelp.output))
    var output: String?

    @Option(help: .init(GatewayOptionHelp.renderTemplates))
    var templates: String?

    @Option(name: .customLong("template-overrides"), help: .init(GatewayOptionHelp.renderTemplateOverrides))
    var templateOverrides: String?

    @Option(help: .valued("locale", GatewayOptionHelp.locale))
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
