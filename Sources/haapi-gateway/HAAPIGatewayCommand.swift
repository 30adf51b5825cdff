import ArgumentParser

@main
struct HAAPIGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haapi-gateway",
        abstract: "Sign in through Curity's Hypermedia Authentication API (HAAPI) from any browser.",
        subcommands: [
            ServeCommand.self, LoginCommand.self, TokenCommand.self, KeepCommand.self, LogoutCommand.self, CheckConfigCommand.self,
            DoctorCommand.self,
            ProxyCommand.self,
            RenderCommand.self, DemoServerCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )
}
