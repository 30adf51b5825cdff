import Foundation
import HAAPIGateway

/// The registries the Docker credential helper answers for: those Docker's own configuration hands to it, the
/// `credHelpers` entries naming `haapi-gateway` in `$DOCKER_CONFIG/config.json` (else `~/.docker/config.json`). Docker
/// asks a `credHelpers` helper only about its registry, but a helper made the store of every registry (`credsStore`)
/// is asked about all of them, Docker Hub's too: answering any server would send the sign-in's token to each. Reading
/// the entry the person writes anyway keeps one place to say where the token goes.
public struct DockerCredentialRegistries: Sendable, Equatable {
    /// The helper's name in `credHelpers` (Docker runs `docker-credential-<name>`).
    public static let helperName = "haapi-gateway"

    /// The registries, as their `credHelpers` keys are written.
    public let servers: [String]

    public init(servers: [String]) {
        self.servers = servers
    }

    /// Docker's configuration file: `config.json` in `$DOCKER_CONFIG`, else in `~/.docker` (as the Docker CLI has it).
    public static func configurationPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let directory = environment["DOCKER_CONFIG"], !directory.isEmpty { return directory + "/config.json" }
        return (environment["HOME"] ?? NSHomeDirectory()) + "/.docker/config.json"
    }

    /// The largest Docker configuration the helper reads (4 MiB: thousands of registries).
    public static let maximumConfigurationBytes = 4 * 1_048_576

    /// The registries of Docker's configuration file; none when there is no file.
    public static func read(environment: [String: String] = ProcessInfo.processInfo.environment) -> Result<Self, HostTokenProblem> {
        let path = configurationPath(environment: environment)
        guard FileManager.default.fileExists(atPath: path) else { return .success(Self(servers: [])) }
        // Read every time Docker asks: a configuration of hundreds of thousands of entries cost 30 s and 600 MB a call.
        let size = ((try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? NSNumber)?.intValue ?? 0
        guard size <= maximumConfigurationBytes else {
            return .failure(
                HostTokenProblem(
                    "Docker's configuration \(path) is \(size) bytes, more than the \(maximumConfigurationBytes / 1_048_576) MiB this helper reads",
                    exitStatus: 78
                )
            )
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return .failure(HostTokenProblem("cannot read Docker's configuration \(path)", exitStatus: 78))
        }
        return parse(data, path: path)
    }

    /// The registries of Docker's configuration `data`, read from `path`.
    public static func parse(_ data: Data, path: String) -> Result<Self, HostTokenProblem> {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else {
            return .failure(HostTokenProblem("Docker's configuration \(path) is not a JSON object", exitStatus: 78))
        }
        let helpers = object["credHelpers"] as? [String: Any] ?? [:]
        return .success(Self(servers: helpers.compactMap { $0.value as? String == helperName ? $0.key : nil }.sorted()))
    }

    /// The registry `serverURL` names, when it is one of these: compared by host name and port, as Docker finds a
    /// registry's `credHelpers` entry (the scheme and path left out, letters in either case).
    public func registry(for serverURL: String) -> String? {
        let asked = Self.hostname(of: serverURL)
        guard !asked.isEmpty else { return nil }
        return servers.first { Self.hostname(of: $0) == asked }
    }

    /// Why the token may not go to `serverURL`, whose `credHelpers` entry is `registry`: either names plain `http://` to
    /// a host that is not this one (a loopback address), where the token would cross a network in clear. Docker does not
    /// tell a helper how it reaches a registry without a scheme (an `insecure-registries` entry of its daemon), so such a
    /// registry is not to be named in `credHelpers` (docs/headless-and-devices.md says so); a scheme that says it is
    /// refused. Nil: it may.
    public static func plainHTTPRefusal(serverURL: String, registry: String) -> HostTokenProblem? {
        for named in [serverURL, registry] {
            let trimmed = named.trimmingCharacters(in: .whitespacesAndNewlines)
            guard trimmed.lowercased().hasPrefix("http://") else { continue }
            let host = hostname(of: trimmed)
            guard !GitCredentialRequest.isLoopback(GitCredentialRequest.hostname(of: host)) else { continue }
            return HostTokenProblem(
                "\(LogText.untrusted(trimmed)): plain http would send the token in clear; it goes to registries over https, or plain http on this host only",
                exitStatus: 1
            )
        }
        return nil
    }

    /// `serverURL`'s host and port: without `http://` or `https://` and anything from the first `/` on, in lower case.
    static func hostname(of serverURL: String) -> String {
        var host = serverURL.trimmingCharacters(in: .whitespacesAndNewlines)
        for prefix in ["https://", "http://"] where host.lowercased().hasPrefix(prefix) { host = String(host.dropFirst(prefix.count)) }
        if let slash = host.firstIndex(of: "/") { host = String(host[..<slash]) }
        return host.lowercased()
    }

    /// What `list` prints: each registry with the username `get` gives it.
    public var listing: String {
        let object = Dictionary(uniqueKeysWithValues: servers.map { ($0, DockerCredential.username) })
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
