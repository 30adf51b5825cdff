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

    @Option(help: "Templates directory (default: ./templates, else templates/ next to the executable).")
    var templates: String?

    @Option(name: .customLong("template-overrides"), help: "Directory of templates layered over the defaults, file by file.")
    var templateOverrides: String?

    @Option(help: ArgumentHelp("Language of the gateway's own texts (a tag such as sv, or an Accept-Language value); default en.", valueName: "locale"))
    var locale: String?

    func run() async throws {
        let renderer = try StepRenderer(
            templates: TemplateSettings(
                directory: templates.map { URL(fileURLWithPath: $0) }, overrideDirectory: templateOverrides.map { URL(fileURLWithPath: $0) }))
        let data = try Data(contentsOf: URL(fileURLWithPath: step))
        FileHandle.standardOutput.write(Data(try renderer.render(json: data, locale: locale).utf8))
    }
}
