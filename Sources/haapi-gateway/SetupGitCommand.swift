import ArgumentParser
import Foundation
import HAAPIHostTools

/// `haapi-gateway setup-git --host HOST`: makes `git-credential` git's only credential helper for that host in the
/// user's global git configuration, as `gh auth setup-git` does, by running `git config --global` twice
/// (``GitCredentialHost``).
struct SetupGitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup-git",
        abstract: "Make git ask haapi-gateway git-credential for a host's credentials (in ~/.gitconfig).",
        discussion:
            "Runs git config --global --replace-all credential.<url>.helper \"\" (an empty helper: the helpers configured before it, the system's and the global credential.helper, are not asked for this host, and none of them stores the token), then git config --global --add credential.<url>.helper \"!<this executable> git-credential\". Running it again leaves the same two values. --host is a host or host:port (https is meant), or https://host[:port]; an http:// URL only for a loopback host (localhost, 127.0.0.1, [::1]), where the token crosses no network. Exit status: 0 configured; 1 git could not be run or failed; 64 a bad --host."
    )

    @Option(name: .customLong("host"), help: .valued("host", HostToolOptionHelp.host))
    var host: String

    func validate() throws {
        if case .failure(let problem) = GitCredentialHost.parse(host) { throw ValidationError(problem.message) }
    }

    func run() async throws {
        guard case .success(let gitHost) = GitCredentialHost.parse(host) else { return }
        switch await gitHost.setUp(executable: GitCredentialHost.executablePath, git: GitCredentialHost.runGit) {
        case .success(let line): print(line)
        case .failure(let problem): exitWith(problem)
        }
    }
}
