import ArgumentParser
import Foundation
import HAAPIGateway

/// `haapi-gateway check-config FILE`: loads a configuration as `serve` would (file, then environment) and prints either
/// the effective configuration (secrets redacted) or every problem.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a configuration file (with the HAAPI_GATEWAY_… environment) and print the effective configuration.",
        discussion: "Exits 0 when the configuration is valid, 78 (EX_CONFIG) with every problem listed otherwise."
    )

    @Argument(help: ArgumentHelp("The YAML configuration file.", valueName: "file"))
    var file: String

    func run() throws {
        var options = try ConfigurationOptions.parse([])
        options.configFile = file
        do {
            let configuration = try options.loadConfiguration()
            print("\(file): configuration OK")
            for line in configuration.summary { print("  \(line)") }
        } catch {
            FileHandle.standardError.write(Data("haapi-gateway: \(file): \(error.description)\n".utf8))
            throw ExitCode(78)
        }
    }
}
