import ArgumentParser
import HAAPIGateway
import HAAPIHostTools

@main
struct HAAPIGatewayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "haapi-gateway",
        abstract: "Sign in through Curity's Hypermedia Authentication API (HAAPI) from any browser.",
        version: "haapi-gateway \(GatewayVersion.current)",
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
    /// Swift concurrency's tasks run on Swift's own pool. Running them on NIO's event loops instead
    /// (`NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor`) measured 0.25 ms less a
    /// step, but deadlocks: on an event loop a hop to Swift's generic executor queues the job again behind that loop's
    /// queue, and swift-async-algorithms' `merge` (Hummingbird's date cache, graceful shutdown) holds its lock across
    /// such a queueing (its issue #430; docs/performance.md, "What issue #43 changed"). It stays out until a release of
    /// that library releases the lock first.
    static func main() async {
        await main(DockerCredentialInvocation.arguments(CommandLine.arguments))
    }
}
