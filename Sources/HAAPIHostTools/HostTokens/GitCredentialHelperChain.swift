import Foundation
import HAAPIGateway

/// The credential helpers git asks for a request, in git's order: every `credential.helper` and matching
/// `credential.<url>.helper` as configured, an empty one dropping those before it (gitcredentials(7)). When the sign-in
/// succeeds, git hands the credential to every one of them to store (`git credential approve`), so `git-credential`
/// answers only when it is the only one: a generic `credential.helper store` configured after `setup-git`'s lines would
/// otherwise write the token to `~/.git-credentials`.
public struct GitCredentialHelperChain: Sendable, Equatable {
    /// The helpers git asks, in order.
    public let helpers: [GitCredentialHelperEntry]

    /// The chain `entries` (all of git's helper settings, in git's order) make for `request`.
    public init(_ entries: [GitCredentialHelperEntry], for request: GitCredentialRequest) {
        var helpers: [GitCredentialHelperEntry] = []
        for entry in entries where entry.applies(to: request) {
            if entry.helper.isEmpty { helpers.removeAll() } else { helpers.append(entry) }
        }
        self.helpers = helpers
    }

    /// The helpers other than `haapi-gateway git-credential`: each would be handed the token.
    public var others: [GitCredentialHelperEntry] { helpers.filter { !$0.isThisGateway } }

    /// Why the token is not given to git for `request`, naming each other helper and where it is set; nil when this
    /// helper is the only one.
    public func refusal(for request: GitCredentialRequest) -> HostTokenProblem? {
        guard !others.isEmpty else { return nil }
        let named = others.map { entry in
            let key = entry.urlPattern.map { "credential.\($0).helper" } ?? "credential.helper"
            return "\(LogText.untrusted(entry.helper)) (\(LogText.untrusted(key)) in \(LogText.untrusted(entry.origin)))"
        }
        let url = "\(request.scheme ?? "https")://\(request.host ?? "")"
        return HostTokenProblem(
            "git-credential: git would also hand the token to \(named.joined(separator: ", ")), which may keep it; not answering. Remove it or scope it to other hosts, or run git config --global --remove-section \(LogText.untrusted("credential.\(url)")) and haapi-gateway setup-git again, so that setup-git's empty helper comes after it"
        )
    }

    /// git's helper settings as git reads them where it runs this helper (its repository, the environment git passes
    /// on, the global and system files): `git config --null --show-origin --get-regexp`. Nil when git cannot be run
    /// (the chain is then not known; git itself ran this helper, so it is there in practice).
    public static func configuredEntries() async -> [GitCredentialHelperEntry]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "config", "--null", "--show-origin", "--get-regexp", #"^credential\..*helper$"#]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let (status, data): (Int32, Data) = await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let data = output.fileHandleForReading.readDataToEndOfFile()  // off the pool: a thread of its own
                process.waitUntilExit()  // off the pool: a thread of its own; the output has ended
                continuation.resume(returning: (process.terminationStatus, data))
            }
        }
        switch status {
        case 0: return GitCredentialHelperEntry.parse(data)
        case 1: return []  // no helper configured
        default: return nil
        }
    }
}
