import Foundation
import HAAPI
import Synchronization
import Testing

@testable import HAAPIGateway
@testable import HAAPIHostTools

/// What the Docker credential helper's `get` answers (``DockerCredential/get(input:registries:tokenPath:tokens:)``), what
/// `kube-credential` gives (``ExecCredential/get(version:accessToken:tokenPath:tokens:)``) and what `setup-git` runs
/// (``GitCredentialHost/setUp(executable:git:)``), without Docker, kubectl, git or a token file.
@Suite("The credential helpers' runs")
struct CredentialHelperRunTests {
    static let registries = DockerCredentialRegistries(servers: ["registry.example"])
    static let tokens = OAuthTokens(accessToken: "access-1", expiresIn: 300, refreshToken: "r", tokenType: "Bearer", scope: nil, idToken: nil)

    /// `get`'s answer for `input`, with `tokens` as the current tokens.
    static func get(_ input: String, tokens: Result<(tokens: OAuthTokens, written: Date), HostTokenProblem>) async -> Result<String, HostTokenProblem>
    {
        await DockerCredential.get(input: input, registries: { .success(registries) }, tokenPath: "/t") { _ in tokens }
    }

    @Test("docker get: the credential for a registry handed to it; not found for another, the protocol's line alone")
    func dockerGet() async throws {
        let json = try await Self.get("registry.example", tokens: .success((Self.tokens, Date()))).get()
        #expect(json.contains(#""Secret":"access-1""#))
        #expect(json.contains(#""ServerURL":"registry.example""#))
        guard case .failure(let other) = await Self.get("other.example", tokens: .success((Self.tokens, Date()))) else {
            Issue.record("another registry got the token")
            return
        }
        #expect(other == HostTokenProblem(DockerCredential.notFoundMessage))
        guard case .failure(let none) = await Self.get("\n", tokens: .success((Self.tokens, Date()))) else { return }
        #expect(none == HostTokenProblem(DockerCredential.missingServerURLMessage))
    }

    @Test("docker get: no tokens or a DPoP-bound token is a line after haapi-gateway:, with its status")
    func dockerProblems() async {
        guard case .failure(let noSignIn) = await Self.get("registry.example", tokens: .failure(HostTokenProblem("no sign-in", exitStatus: 1))) else {
            Issue.record("no tokens answered a credential")
            return
        }
        #expect(noSignIn == HostTokenProblem("haapi-gateway: no sign-in", exitStatus: 1))
        let bound = OAuthTokens(accessToken: "a", expiresIn: 300, refreshToken: nil, tokenType: "DPoP", scope: nil, idToken: nil)
        guard case .failure(let refused) = await Self.get("registry.example", tokens: .success((bound, Date()))) else {
            Issue.record("a DPoP-bound token was handed to Docker")
            return
        }
        #expect(refused.message.hasPrefix("haapi-gateway: "))
        let unread = await DockerCredential.get(
            input: "registry.example",
            registries: { .failure(HostTokenProblem("bad config.json", exitStatus: 78)) },
            tokenPath: "/t"
        ) { _ in
            .failure(HostTokenProblem("not asked"))
        }
        #expect(unread.map { _ in "" } == .failure(HostTokenProblem("haapi-gateway: bad config.json", exitStatus: 78)))
    }

    @Test("git-credential get: the token for https; nothing, with one line, for plain http elsewhere; a bad request refused")
    func gitGet() async {
        let current: Result<(tokens: OAuthTokens, written: Date), HostTokenProblem> = .success((Self.tokens, Date()))
        let answer = await GitCredentialAnswer.get(input: "protocol=https\nhost=git.example\n\n", helperEntries: { [] }, tokenPath: "/t") { _ in
            current
        }
        guard case .answer(let text) = answer else {
            Issue.record("https was not answered: \(answer)")
            return
        }
        #expect(text.contains("password=access-1"))
        let plain = await GitCredentialAnswer.get(input: "protocol=http\nhost=git.example\n\n", helperEntries: { nil }, tokenPath: "/t") { _ in
            current
        }
        #expect(
            plain == .declined("haapi-gateway: git-credential answers https, and http to this host only: not sending the token to http://git.example")
        )
        let bad = await GitCredentialAnswer.get(input: "no key value", helperEntries: { nil }, tokenPath: "/t") { _ in current }
        guard case .refused = bad else {
            Issue.record("a request that is not key=value lines was answered: \(bad)")
            return
        }
        let none = await GitCredentialAnswer.get(input: "protocol=https\nhost=git.example\n\n", helperEntries: { nil }, tokenPath: "/t") { _ in
            .failure(HostTokenProblem("no sign-in"))
        }
        #expect(none == .refused(HostTokenProblem("no sign-in")))
    }

    @Test("kube-credential: the ID token, refreshed first when it expires before the access token; the access token when asked")
    func kubeCredential() async throws {
        let now = Date()
        let soon = OAuthTokens(
            accessToken: "access-1",
            expiresIn: 3_600,
            refreshToken: "r",
            tokenType: "Bearer",
            scope: "openid",
            idToken: CredentialHelperTokenTests.jwt(exp: now.addingTimeInterval(30))
        )
        let fresh = OAuthTokens(
            accessToken: "access-2",
            expiresIn: 3_600,
            refreshToken: "r",
            tokenType: "Bearer",
            scope: "openid",
            idToken: CredentialHelperTokenTests.jwt(exp: now.addingTimeInterval(3_600))
        )
        let asked = AskedValidity()
        let refreshed = await ExecCredential.get(version: .v1, accessToken: false, tokenPath: "/t") { minimum in
            asked.append(minimum)
            return .success((asked.all.count == 1 ? soon : fresh, now))
        }
        #expect(try refreshed.get().json.contains(fresh.idToken ?? "?"))
        #expect(asked.all.count == 2 && asked.all[1] > CredentialHelperToken.minimumValidSeconds)
        let failedRefresh = await ExecCredential.get(version: .v1, accessToken: false, tokenPath: "/t") { minimum in
            minimum == CredentialHelperToken.minimumValidSeconds ? .success((soon, now)) : .failure(HostTokenProblem("refused"))
        }
        #expect(try failedRefresh.get().json.contains(soon.idToken ?? "?"))
        let access = await ExecCredential.get(version: .v1, accessToken: true, tokenPath: "/t") { _ in .success((soon, now)) }
        #expect(try access.get().json.contains("access-1"))
        let none = await ExecCredential.get(version: .v1, accessToken: true, tokenPath: "/t") { _ in .failure(HostTokenProblem("no sign-in")) }
        #expect(none.map(\.json) == .failure(HostTokenProblem("no sign-in")))
    }

    @Test("setup-git runs git twice and says where; a git that fails or cannot run is named with its command")
    func setupGit() async throws {
        let host = try GitCredentialHost.parse("git.example").get()
        let ran = RanCommands()
        let line = try await host.setUp(executable: "/usr/bin/haapi-gateway") { arguments in
            ran.append(arguments)
            return 0
        }.get()
        #expect(ran.all == host.gitArguments(executable: "/usr/bin/haapi-gateway"))
        #expect(line.hasPrefix("git asks "))
        #expect(line.hasSuffix("(\(host.configurationKey) in ~/.gitconfig)"))
        guard case .failure(let failed) = await host.setUp(executable: "/x", git: { _ in 128 }) else { return }
        #expect(failed.message.hasSuffix("\(host.configurationKey) exited 128"))
        guard case .failure(let missing) = await host.setUp(executable: "/x", git: { _ in nil }) else { return }
        #expect(missing.message.hasSuffix("could not be run (is git installed?)"))
    }

    /// The validities a fake refresh was asked for.
    final class AskedValidity: Sendable {
        private let asked = Mutex<[TimeInterval]>([])
        var all: [TimeInterval] { asked.withLock { $0 } }
        func append(_ validity: TimeInterval) { asked.withLock { $0.append(validity) } }
    }

    /// The commands a fake git was run with.
    final class RanCommands: Sendable {
        private let commands = Mutex<[[String]]>([])
        var all: [[String]] { commands.withLock { $0 } }
        func append(_ arguments: [String]) { commands.withLock { $0.append(arguments) } }
    }
}
