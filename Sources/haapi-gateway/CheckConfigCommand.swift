import ArgumentParser
import Foundation
import HAAPIGateway

/// `haapi-gateway check-config FILE`: loads a configuration as `serve` would (file, then environment) and prints either
/// the effective configuration (secrets redacted) or every problem.
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Check a configuration file (with the HAAPI_GATEWAY_… environment) and print the effective configuration.",
        discussion: """
            Exits 0 when the configuration is valid; otherwise lists every problem and exits 78 (EX_CONFIG), or 66 (EX_NOINPUT) \
            when every problem is a file that is missing or cannot be read (a certificate, a key, the templates).
            """
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
            throw ExitCode(error.exitStatus)
        }
    }
}
