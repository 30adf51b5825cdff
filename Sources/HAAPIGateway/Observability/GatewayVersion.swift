/// What this program was built from: the version of the package's `VERSION` file and the git commit of the checkout
/// (its date, and whether tracked files differed from it), built in by the `BuiltInFiles` plugin. `haapi-gateway
/// --version` prints it; a build outside a git checkout has no commit.
public struct GatewayVersion: Sendable, CustomStringConvertible {
    /// The release version, `0.1.0`.
    public let version: String
    /// The commit's full hash; empty outside a git checkout.
    public let commit: String
    /// The commit's date (UTC, ISO 8601); empty outside a git checkout.
    public let commitDate: String
    /// Whether tracked files differed from the commit when it was built.
    public let modified: Bool

    /// The revision this program was built from.
    public static let current = GatewayVersion(
        version: GeneratedSourceRevision.version,
        commit: GeneratedSourceRevision.commit,
        commitDate: GeneratedSourceRevision.commitDate,
        modified: GeneratedSourceRevision.modified
    )

    /// `0.1.0 (commit 9e28cbe1a2b3…, 2026-11-28)`: the version, the commit's full hash, `modified` when the build's
    /// tracked files differed from it, and the commit's day.
    public var description: String {
        guard !commit.isEmpty else { return "\(version) (built outside a git checkout: no commit)" }
        return "\(version) (commit \(commit)\(modified ? ", modified" : ""), \(commitDate.prefix(10)))"
    }
}
