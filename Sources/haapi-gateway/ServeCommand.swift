import ArgumentParser
import Foundation
import HAAPI
import HAAPIDemoServer
import HAAPIGateway
import Hummingbird
import Logging

/// `haapi-gateway serve` (the default): serves the sign-in pages, in front of the embedded demo server unless `--upstream` is given.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the sign-in pages (with the embedded demo HAAPI server unless --upstream is given)."
    )

    @Option(help: "Address to bind.")
    var host: String = "127.0.0.1"

    @Option(help: "Port to bind; 0 picks a free port.")
    var port: Int = 8080

    @Option(help: "Base URL of the upstream HAAPI server (Curity). Without it the embedded demo server is used.")
    var upstream: String?

    @Option(name: .customLong("client-id"), help: "OAuth client id at the upstream.")
    var clientID: String?

    @Option(name: .customLong("client-secret"), help: "OAuth client secret at the upstream (client_secret_basic).")
    var clientSecret: String?

    @Option(name: .customLong("redirect-uri"), help: "The client's registered redirect URI at the upstream.")
    var redirectURI: String = "haapi:start"

    @Option(name: .customLong("callback"), help: "Where the outcome goes: file:PATH or exec:PROGRAM (repeatable).")
    var callbacks: [String] = []

    @Option(help: "Templates directory (default: ./templates, else templates/ next to the executable).")
    var templates: String?

    @Option(name: .customLong("template-overrides"), help: "Directory of templates layered over the defaults, file by file.")
    var templateOverrides: String?

    @Option(name: .customLong("public-url"), help: "The URL browsers use (https enables Secure/__Host- cookies).")
    var publicURL: String?

    @Option(name: .customLong("log-level"), help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String = "info"

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("Unknown --log-level \(logLevel)") }
        if let upstream {
            guard let url = URL(string: upstream), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("--upstream must be an absolute http(s) URL")
            }
            guard clientID != nil, clientSecret != nil else { throw ValidationError("--upstream needs --client-id and --client-secret") }
        }
        _ = try callbackSinks()
    }

    func callbackSinks() throws -> [CallbackSinkConfiguration] {
        try callbacks.map { value in
            if value.hasPrefix("file:"), value.count > 5 { return .file(path: String(value.dropFirst(5))) }
            if value.hasPrefix("exec:"), value.count > 5 { return .exec(program: String(value.dropFirst(5))) }
            throw ValidationError("--callback must be file:PATH or exec:PROGRAM (got \(value.prefix(8))…)")
        }
    }

    /// The gateway configuration for an upstream client configuration.
    func gatewayConfiguration(upstream: HAAPIClientConfiguration) throws -> GatewayConfiguration {
        GatewayConfiguration(
            server: ServerSettings(host: host, port: port, publicBaseURL: publicURL.flatMap(URL.init(string:))),
            upstream: .haapi(upstream),
            templates: TemplateSettings(
                directory: templates.map { URL(fileURLWithPath: $0) }, overrideDirectory: templateOverrides.map { URL(fileURLWithPath: $0) }),
            callbacks: try callbackSinks())
    }

    func run() async throws {
        var logger = Logger(label: "haapi-gateway")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var demo: RunningDemoServer?
        let upstreamConfiguration: HAAPIClientConfiguration
        if let upstream, let url = URL(string: upstream), let clientID, let clientSecret {
            upstreamConfiguration = HAAPIClientConfiguration(
                baseURL: url, clientID: clientID, clientAuthentication: .secretBasic(clientSecret), redirectURI: redirectURI,
                scopes: ["openid", "profile", "email"])
        } else {
            let server = try await DemoServer.start(configuration: DemoServerConfiguration(port: 0), logger: logger)
            demo = server
            upstreamConfiguration = HAAPIClientConfiguration(
                baseURL: server.baseURL, clientID: DemoServer.clientID, clientAuthentication: .secretBasic(DemoServer.clientSecret),
                redirectURI: DemoServer.redirectURI, scopes: ["openid", "profile", "email"])
        }
        do {
            let isDemo = demo != nil
            let application = try await Gateway.makeApplication(configuration: try gatewayConfiguration(upstream: upstreamConfiguration), logger: logger) { url in
                var banner = "HAAPI gateway: open \(url.absoluteString)/ in a browser\n"
                if isDemo { banner += "Embedded demo upstream; users demo/demo, otp/otp, poll/poll, consent/consent\n" }
                FileHandle.standardOutput.write(Data(banner.utf8))
                if callbacks.isEmpty {
                    let warning = "Note: no --callback is configured, so the tokens of each sign-in are discarded. Add --callback file:PATH or exec:PROGRAM.\n"
                    FileHandle.standardError.write(Data(warning.utf8))
                }
            }
            try await application.runService()
        } catch {
            await demo?.shutdown()
            throw error
        }
        await demo?.shutdown()
    }
}
