import ArgumentParser
import HAAPIGateway
import NIOCore
import NIOPosix

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
    ///
    /// First, Swift concurrency's tasks are made to run on NIO's event loop threads (the ones the HTTP server, the HTTP
    /// client and the PostgreSQL client already share), so that a request's task and its I/O meet on one thread instead
    /// of handing every read and write between two pools: an A/B of release builds measured 0.25 ms less per step and
    /// 22 % less CPU with the memory store, 0.5 ms and 19 % with PostgreSQL (docs/performance.md).
    static func main() async {
        NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
        await main(DockerCredentialInvocation.arguments(CommandLine.arguments))
    }
}
