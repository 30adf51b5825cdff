import ArgumentParser
import Foundation
import HAAPIGateway

/// `haapi-gateway check-config [FILE]`: loads a configuration as `serve` would (the file, `$HAAPI_GATEWAY_CONFIG` without
/// one, then the environment) and prints either the effective configuration (secrets redacted) or every problem;
/// `check-config --reference` prints the configuration reference (`docs/configuration.md`).
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract:
            "Check a configuration file (with the HAAPI_GATEWAY_… environment) and print the effective configuration; --reference prints every setting.",
        discussion:
            "Without FILE it checks the file $HAAPI_GATEWAY_CONFIG names, as serve reads it (the container sets it). Exits 0 when the configuration is valid; otherwise lists every problem and exits 78 (EX_CONFIG), or 66 (EX_NOINPUT) when every problem is a file that is missing or cannot be read (a certificate, a key, the templates). With --reference it prints every setting (its environment variable, type, default, allowed values and when a change takes effect) as Markdown, what docs/configuration.md holds."
    )

    @Argument(help: .valued("file", "The YAML configuration file (default: $HAAPI_GATEWAY_CONFIG)."))
    var file: String?

    @Flag(help: "Print the configuration reference (Markdown) instead of checking a file.")
    var reference = false

    func validate() throws {
        if reference, file != nil { throw ValidationError("--reference takes no file") }
    }

    func run() throws {
        if reference {
            print(ConfigurationReference.markdown, terminator: "")
            return
        }
        var flags = ConfigurationFlags()
        flags.configFile = file
        // The file serve would read: the one named, else $HAAPI_GATEWAY_CONFIG.
        guard let file = flags.configurationFile(environment: ProcessInfo.processInfo.environment) else {
            throw ValidationError("name the configuration file to check, or set \(ConfigurationLayers.configurationFileVariable)")
        }
        flags.configFile = file
        do {
            print(try flags.load().checkReport(file: file))
        } catch {
            FileHandle.standardError.write(Data("haapi-gateway: \(file): \(error.description)\n".utf8))
            throw ExitCode(error.exitStatus)
        }
    }
}
