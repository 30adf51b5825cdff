import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIGatewayPostgres
import HAAPIHostTools

/// `haapi-gateway login`: one sign-in for a host without a browser, written to a private token file. Without `--via` it
/// runs a local gateway for the sign-in (``LocalLogin``); with `--via URL` it signs in through a central gateway as a
/// device client (``DeviceLogin``, RFC 8628). Either way the person signs in on their phone or another computer.
///
/// Exit status: 0 signed in; 1 the sign-in failed, was denied or cancelled (the reason on standard error); 2 no sign-in
/// in time; the startup statuses of ``StartupFailure`` (78 bad configuration, 69 address in use, …).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in once from a phone or another computer and write the tokens to a private file.",
        discussion:
            "Prints a link (working once, until --timeout-seconds) and a confirmation code. The page the link opens shows the code and this host's name; the sign-in continues only when the person confirms they match. On success the token model is written to --token-file (mode 0600, in a directory only you can enter) and a one-line summary is printed (never a token). To reach this host from a phone, bind a network address (--host 0.0.0.0) and, behind a proxy, set --public-url. With --via URL no local gateway starts: this host asks the central gateway at URL for a device authorization as --device-client (RFC 8628), prints the link with the code in it and the code to type, and polls until the person has signed in there (or the code or --timeout-seconds ran out); the local gateway's options cannot be used with it. Exit status: 0 signed in, 1 failed, denied or cancelled, 2 timed out or the code expired. A failure to start is one line on standard error. \(StartupFailure.exitStatusHelp)"
    )

    @OptionGroup var options: ConfigurationOptions
    @OptionGroup var device: DeviceClientOptions
    @OptionGroup var tokenFile: TokenFileOption
    @Option(name: .customLong("timeout-seconds"), help: "How long the link works and the command waits for the sign-in.")
    var timeoutSeconds: Int = 600
    @Flag(help: "Print the result as one JSON object on standard output (the link then goes to standard error).")
    var json = false
    @Flag(help: "Also draw the link as a QR code in the terminal, to scan with a phone.")
    var qr = false

    func validate() throws {
        guard (1...86_400).contains(timeoutSeconds) else { throw ValidationError("--timeout-seconds must be between 1 and 86400") }
        try device.validate(against: options)
    }

    func run() async throws {
        let login = LoginRun(tokenPath: tokenFile.path, timeoutSeconds: timeoutSeconds, json: json, qr: qr) { text, toStandardError in
            (toStandardError ? FileHandle.standardError : FileHandle.standardOutput).write(Data(text.utf8))
        }
        let report: LoginReport
        if let gateway = device.flags.gateway {
            do {
                report = try await login.signIn(via: gateway, device: device.flags, logger: terminalLogger(level: options.logLevel))
            } catch {
                exitWith(error)
            }
        } else {
            report = try await signInLocally(login)
        }
        if report.exitStatus != 0 { Foundation.exit(report.exitStatus) }
    }

    /// Through a gateway of its own (``LoginRun/signInLocally(configuration:embeddedDemo:storageChoice:logger:)``), with
    /// the embedded demo upstream when none is configured.
    private func signInLocally(_ login: LoginRun) async throws -> LoginReport {
        let configuration: GatewayConfiguration
        do {
            configuration = try options.flags.loadForHost()
            try TokenFile.prepareDirectory(for: login.tokenPath)
        } catch {
            exitStarting(error, listening: "", port: 0)
        }
        var logging = configuration.logging
        // A terminal command stays quiet unless asked: warnings and errors only, by default.
        if options.logLevel == nil { logging.level = .warning }
        let logger = logging.makeLogger(label: "haapi-gateway")
        let (resolved, demo) = try await EmbeddedUpstream.start(for: configuration, logger: logger)
        do {
            let (embedded, storage) = (demo != nil, GatewayStorageChoice.bySessionsStore)
            let report = try await login.signInLocally(configuration: resolved, embeddedDemo: embedded, storageChoice: storage, logger: logger)
            await demo?.shutdown()
            return report
        } catch {
            await demo?.shutdown()
            exitStarting(error, listening: resolved.server.host, port: resolved.server.port)
        }
    }
}
