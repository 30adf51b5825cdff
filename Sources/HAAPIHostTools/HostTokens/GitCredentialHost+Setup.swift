import Foundation

extension GitCredentialHost {
    /// What `setup-git` does: runs `git` with each of ``gitArguments(executable:)`` in turn, and answers the line to
    /// print, or the first git command that failed (status 1).
    /// - Parameters:
    ///   - executable: This executable's absolute path (``executablePath``).
    ///   - git: Runs git with the arguments; its exit status, nil when it did not run (``runGit(_:)``).
    public func setUp(executable: String, git: (_ arguments: [String]) async -> Int32?) async -> Result<String, HostTokenProblem> {
        for arguments in gitArguments(executable: executable) {
            let status = await git(arguments)
            guard status == 0 else {
                let command = arguments.prefix(3).joined(separator: " ")
                let ending = status.map { "exited \($0)" } ?? "could not be run (is git installed?)"
                return .failure(HostTokenProblem("git \(command) \(configurationKey) \(ending)"))
            }
        }
        return .success("git asks \(Self.helper(executable: executable)) for \(url) (\(configurationKey) in ~/.gitconfig)")
    }

    /// This executable's absolute path, symlinks resolved (`Bundle.main`: on Linux `/proc/self/exe`), as git must find it
    /// from any directory, whatever name it was run by.
    public static var executablePath: String {
        (Bundle.main.executableURL ?? URL(fileURLWithPath: CommandLine.arguments[0])).resolvingSymlinksInPath().path
    }

    /// Runs `git` with `arguments` (found on `PATH`), its output and errors the user's; its exit status, nil when it did
    /// not run. It waits in its exit handler, not on a thread.
    public static func runGit(_ arguments: [String]) async -> Int32? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git"] + arguments
        return await process.runToExit()
    }
}
