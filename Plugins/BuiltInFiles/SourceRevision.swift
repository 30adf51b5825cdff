import Foundation

/// What the build is made from: the version in the package's `VERSION` file, and, in a git checkout, the commit, its
/// date (UTC, ISO 8601; a release takes its timestamps from it) and whether tracked files differ from it. Outside a
/// checkout (a source archive) the commit and date are empty.
struct SourceRevision {
    let versionFile: URL
    let version: String
    let commit: String
    let commitDate: String
    let modified: Bool

    init(packageDirectory: URL) {
        versionFile = packageDirectory.appending(path: "VERSION")
        version = ((try? String(contentsOf: versionFile, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        let git = { (arguments: [String]) in Self.run(["git", "-C", packageDirectory.path] + arguments) }
        commit = git(["rev-parse", "--verify", "--quiet", "HEAD"]) ?? ""
        commitDate = commit.isEmpty ? "" : (git(["show", "-s", "--format=%cd", "--date=iso-strict-local", "HEAD"]) ?? "")
        modified = !commit.isEmpty && !(git(["status", "--porcelain", "--untracked-files=no"]) ?? "").isEmpty
    }

    /// The standard output of a program found on `PATH`, trimmed; nil when it cannot run or fails.
    private static func run(_ arguments: [String]) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["TZ"] = "UTC"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { return nil }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
