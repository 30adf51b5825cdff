import ArgumentParser
import Foundation
import HAAPIGateway
import Hummingbird
import Logging
import ServiceLifecycle

/// `haapi-gateway login`: one sign-in for a host without a browser. Prints a single-use link and a confirmation code;
/// the person opens the link on their phone, confirms the code and signs in; the tokens go to a private file.
///
/// Exit status: 0 signed in; 1 the sign-in failed or was cancelled (the reason on standard error); 2 no sign-in before
/// the link expired; the startup statuses of ``StartupFailure`` (78 bad configuration, 69 address in use, …).
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in once from a phone or another computer and write the tokens to a private file.",
        discussion: """
            Prints a link (working once, until --timeout-seconds) and a confirmation code. The page the link opens shows the \
            code and this host's name; the sign-in continues only when the person confirms they match. On success the token \
            model is written to --token-file (mode 0600, in a directory only you can enter) and a one-line summary is printed \
            (never a token). To reach this host from a phone, bind a network address (--host 0.0.0.0) and, behind a proxy, \
            set --public-url. Exit status: 0 signed in, 1 failed or cancelled, 2 timed out. A failure to start is one line on \
            standard error. \(StartupFailure.exitStatusHelp)
            """
    )

    @OptionGroup var options: ConfigurationOptions

    @OptionGroup var tokenFile: TokenFileOption

    @Option(name: .customLong("timeout-seconds"), help: "How long the link works and the command waits for the sign-in.")
    var timeoutSeconds: Int = 600

    @Flag(help: "Print the result as one JSON object on standard output (the link then goes to standard error).")
    var json = false

    @Flag(help: "Also draw the link as a QR code in the terminal, to scan with a phone.")
    var qr = false

    func validate() throws {
        guard (1...86_400).contains(timeoutSeconds) else { throw ValidationError("--timeout-seconds must be between 1 and 86400") }
    }

    func run() async throws {
        var configuration: GatewayConfiguration
        let tokenPath = tokenFile.path
        do {
            configuration = try options.loadConfiguration()
            try TokenFile.prepareDirectory(for: tokenPath)
        } catch {
            exitStarting(error, listening: "", port: 0)
        }
        var logging = configuration.logging
        // A terminal command stays quiet unless asked: warnings and errors only, by default.
        if options.logLevel == nil { logging.level = .warning }
        let logger = logging.makeLogger(label: "haapi-gateway")

        let (resolved, demo) = try await EmbeddedUpstream.start(for: configuration, logger: logger)
        configuration = resolved
        let ticket = PairingTicket.make(lifetime: .seconds(timeoutSeconds))
        configuration.pairing = PairingSettings(ticket: ticket, hostName: ProcessInfo.processInfo.hostName)

        let (outcomes, outcomeSink) = AsyncStream.makeStream(of: CompletionOutcome.self)
        let json = json
        let qr = qr
        let minutes = timeoutSeconds >= 120 ? "\(timeoutSeconds / 60) minutes" : "\(timeoutSeconds) seconds"
        let server = configuration.server
        let application = await orExitStarting(listening: server.host, port: server.port, cleanup: { await demo?.shutdown() }) {
            try await Gateway.makeApplication(
            configuration: configuration, logger: logger,
            onRunning: { url in
                let link = NetworkAddress.reachable(url).absoluteString.trimmingSuffix("/") + ticket.path
                let picture = qr ? ((try? QRCode.encode(link).terminalString()).map { $0 + "\n\n" } ?? "") : ""
                let banner = """
                    To sign in, open this link on your phone or another computer (it works once, for \(minutes)):

                        \(link)

                    \(picture)The page shows the code \(ticket.code); continue there only if it matches.
                    Waiting for the sign-in…

                    """
                (json ? FileHandle.standardError : FileHandle.standardOutput).write(Data(banner.utf8))
            },
            onOutcome: { outcome in outcomeSink.yield(outcome) })
        }
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
        let runner = Task {
            defer { outcomeSink.finish() }
            try await group.run()
        }
        let deadline = ContinuousClock.now + .seconds(timeoutSeconds)
        let timer = Task {
            try await Task.sleep(until: deadline, clock: .continuous)
            outcomeSink.finish()
        }
        var outcome: CompletionOutcome?
        for await first in outcomes {
            outcome = first
            break
        }
        timer.cancel()
        // Let the browser load the page it is being sent to, then stop.
        if outcome != nil { try? await Task.sleep(for: .seconds(2)) }
        await group.triggerGracefulShutdown()
        let stopped = await runner.result
        await demo?.shutdown()
        // The listener could not start (its port taken, say): that, not "interrupted", is what went wrong.
        if outcome == nil, case .failure(let error) = stopped { exitStarting(error, listening: server.host, port: server.port) }
        report(outcome, tokenPath: tokenPath, timedOut: ContinuousClock.now >= deadline)
    }

    /// Writes the tokens and prints the result; exits with the status of the outcome.
    private func report(_ outcome: CompletionOutcome?, tokenPath: String, timedOut: Bool) {
        guard let outcome else {
            if json { print(#"{"outcome":"\#(timedOut ? "timeout" : "interrupted")"}"#) }
            exitWith(timedOut ? "haapi-gateway: no sign-in within \(timeoutSeconds) s; run the command again for a new link" : "haapi-gateway: interrupted", status: timedOut ? 2 : 1)
        }
        switch outcome.outcome {
        case "success":
            guard let token = outcome.token else { exitWith("haapi-gateway: the sign-in returned no tokens", status: 1) }
            do {
                try TokenFile.write(outcome, to: tokenPath)
            } catch {
                exitWith("haapi-gateway: signed in, but \(error.message)", status: 1)
            }
            // The validated ID token's sub (the gateway refuses a sign-in whose ID token does not validate).
            let subject = outcome.identity?.subject
            if json {
                var summary: [String: Any] = ["outcome": "success", "tokenFile": tokenPath, "tokenType": token.tokenType]
                summary["subject"] = subject
                summary["scope"] = token.scope
                summary["expiresIn"] = token.expiresIn
                printJSON(summary)
            } else {
                let expiry = token.expiresIn.map { "the access token expires in \($0) s" } ?? "no expiry given"
                print("Signed in as \(subject ?? "(no subject)") with scopes \(token.scope ?? "(none)"); \(expiry). Tokens written to \(tokenPath) (mode 0600).")
            }
        case "cancelled":
            if json { printJSON(["outcome": "cancelled"]) }
            exitWith("haapi-gateway: the sign-in was cancelled", status: 1)
        default:
            let reason = [outcome.error?.error, outcome.error?.errorDescription].compactMap { $0 }.joined(separator: ": ")
            if json { printJSON(["outcome": "error", "error": outcome.error?.error ?? "", "errorDescription": outcome.error?.errorDescription ?? ""]) }
            exitWith("haapi-gateway: the sign-in failed: \(reason.isEmpty ? "unknown error" : reason)", status: 1)
        }
    }

    private func printJSON(_ object: [String: Any]) {
        if let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) {
            print(String(decoding: data, as: UTF8.self))
        }
    }
}

extension String {
    fileprivate func trimmingSuffix(_ suffix: String) -> String { hasSuffix(suffix) ? String(dropLast(suffix.count)) : self }
}
