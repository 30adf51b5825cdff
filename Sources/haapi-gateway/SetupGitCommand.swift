import ArgumentParser
import Foundation
import HAAPIGateway
import HAAPIHostTools

/// `haapi-gateway setup-git --host HOST`: makes `git-credential` git's only credential helper for that host in the
/// user's global git configuration, as `gh auth setup-git` does, by running `git config --global` twice
/// (``GitCredentialHost``).
struct SetupGitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "setup-git",
        abstract: "Make git ask haapi-gateway git-credential for a host's credentials (in ~/.gitconfig).",
        discussion: """
            Runs git config --global --replace-all credential.<url>.helper "" (an empty helper: the helpers configured \
            before it, the system's and the global credential.helper, are not asked for this host, and none of them stores \
            the token), then git config --global --add credential.<url>.helper "!<this executable> git-credential". Running \
            it again leaves the same two values. --host is a host or host:port (https is meant), or https://host[:port]; \
            an http:// URL only for a loopback host (localhost, 127.0.0.1, [::1]), where the token crosses no network. \
            Exit status: 0 configured; 1 git could not be run or failed; 64 a bad --host.
            """
    )

    @Option(
        name: .customLong("host"),
        help: ArgumentHelp("The git server: host, host:port or https://host[:port] (http:// for a loopback host only).", valueName: "host")
    )
    var host: String

    func validate() throws {
        if case .failure(let problem) = GitCredentialHost.parse(host) { throw ValidationError(problem.message) }
    }

    func run() async throws {
        guard case .success(let gitHost) = GitCredentialHost.parse(host) else { return }
        let executable = Self.executablePath()
        for arguments in gitHost.gitArguments(executable: executable) {
            let status = await Self.git(arguments)
            guard status == 0 else {
                let command = arguments.prefix(3).joined(separator: " ")
                let ending = status.map { "exited \($0)" } ?? "could not be run (is git installed?)"
                exitWith("haapi-gateway: git \(command) \(gitHost.configurationKey) \(ending)", status: 1)
            }
        }
        print("git asks \(GitCredentialHost.helper(executable: executable)) for \(gitHost.url) (\(gitHost.configurationKey) in ~/.gitconfig)")
    }

    /// This executable's absolute path, symlinks resolved (`Bundle.main`: on Linux `/proc/self/exe`), as git must find it
    /// from any directory, whatever name it was run by.
    private static func executablePath() -> String {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath().path
    }

    /// Runs `git` with `arguments` (found on `PATH`), its output and errors the user's; its exit status, nil when it did not run.
    private static func git(_ arguments: [String]) async -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        return await withCheckedContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(returning: nil)
            }
        }
    }
}
