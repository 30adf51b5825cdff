import ArgumentParser
import HAAPIGateway

@main
struct HAAPIGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haapi-gateway",
        abstract: "Sign in through Curity's Hypermedia Authentication API (HAAPI) from any browser.",
        subcommands: [
            ServeCommand.self, LoginCommand.self, TokenCommand.self, KeepCommand.self, LogoutCommand.self, CheckConfigCommand.self,
            DoctorCommand.self,
            GitCredentialCommand.self, SetupGitCommand.self, KubeCredentialCommand.self, DockerCredentialCommand.self,
            ProxyCommand.self,
            RenderCommand.self, DemoServerCommand.self,
        ],
        defaultSubcommand: ServeCommand.self
    )

    /// Runs the command the arguments name; run as `docker-credential-haapi-gateway` (a symlink Docker finds by its
    /// `credHelpers` entry), the arguments are `docker-credential`'s.
    static func main() async {
        await main(DockerCredentialInvocation.arguments(CommandLine.arguments))
    }
}
