import ArgumentParser
import Foundation
import HAAPIGateway

/// `haapi-gateway check-config FILE`: loads a configuration as `serve` would (file, then environment) and prints either
/// the effective configuration (secrets redacted) or every problem; `check-config --reference` prints the configuration
/// reference (`docs/configuration.md`).
struct CheckConfigCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract:
            "Check a configuration file (with the HAAPI_GATEWAY_… environment) and print the effective configuration; --reference prints every setting.",
        discussion: """
            Exits 0 when the configuration is valid; otherwise lists every problem and exits 78 (EX_CONFIG), or 66 (EX_NOINPUT) \
            when every problem is a file that is missing or cannot be read (a certificate, a key, the templates). With \
            --reference it prints every setting (its environment variable, type, default, allowed values and when a change \
            takes effect) as Markdown, what docs/configuration.md holds.
            """
    )

    @Argument(help: ArgumentHelp("The YAML configuration file.", valueName: "file"))
    var file: String?

    @Flag(help: "Print the configuration reference (Markdown) instead of checking a file.")
    var reference = false

    func validate() throws {
        if reference, file != nil { throw ValidationError("--reference takes no file") }
        if !reference, file == nil { throw ValidationError("name the configuration file to check") }
    }

    func run() throws {
        guard let file else {
            print(ConfigurationReference.markdown, terminator: "")
            return
        }
        var options = try ConfigurationOptions.parse([])
        options.configFile = file
        do {
            let configuration = try options.loadConfiguration()
            print("\(file): configuration OK")
            for line in configuration.summary { print("  \(line)") }
            let changed = configuration.settingsChangedFromDefaults
            if !changed.isEmpty {
                print("  settings changed from the defaults:")
                for line in changed { print("    \(line)") }
            }
        } catch {
            FileHandle.standardError.write(Data("haapi-gateway: \(file): \(error.description)\n".utf8))
            throw ExitCode(error.exitStatus)
        }
    }
}
