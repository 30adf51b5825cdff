import Foundation
import HAAPI
import HAAPIGateway

/// The token file of `haapi-gateway login`: the success outcome document (`{"outcome":"success","token":{…}}`) with mode
/// 0600 in a directory only its owner can enter (created 0700 when missing), written atomically. Tokens of the embedded
/// demo upstream, which ends with the `login` that issued them, are marked `"embeddedDemoUpstream":true`: no server can
/// refresh or revoke them afterwards (``issuedByEmbeddedDemo(_:)``).
public enum TokenFile {
    /// The default path: `$XDG_CONFIG_HOME/haapi-gateway/tokens.json`, else `~/.config/haapi-gateway/tokens.json`.
    public static func defaultPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        HostDirectory.path(environment: environment) + "/tokens.json"
    }

    /// Where `login` keeps what it learned about its upstream between runs (whether it issues token-bound authorization
    /// codes, nothing secret): `.haapi-gateway-upstream.json` in the token file's private directory, so that the next run
    /// proves its first code exchange at once.
    /// - Parameter tokenPath: The token file.
    public static func upstreamFactsPath(besideTokenFile tokenPath: String) -> String {
        URL(fileURLWithPath: tokenPath).deletingLastPathComponent().appendingPathComponent(".haapi-gateway-upstream.json").path
    }

    /// Makes sure the file's directory exists and only its owner can use it.
    /// - Throws: ``GatewayError`` (code `configuration`) when the directory cannot be created or others can read or
    ///   enter it (a token file there could be read or replaced).
    public static func prepareDirectory(for path: String) throws(GatewayError) {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        if !manager.fileExists(atPath: directory, isDirectory: &isDirectory) {
            do {
                try manager.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
            } catch {
                throw GatewayError(.configuration, "cannot create the token directory \(directory)")
            }
            return
        }
        guard isDirectory.boolValue else { throw GatewayError(.configuration, "\(directory) is not a directory") }
        let mode = ((try? manager.attributesOfItem(atPath: directory))?[.posixPermissions] as? NSNumber)?.intValue ?? 0o777
        guard mode & 0o077 == 0 else {
            throw GatewayError(
                .configuration,
                "the token directory \(directory) is accessible by other users (mode \(String(mode, radix: 8))); use a private directory (chmod 700) or another --token-file"
            )
        }
    }

    /// The tokens of a token file, and when the file was written (when they were issued, near enough).
    /// - Throws: ``GatewayError`` when the file cannot be read or holds no token model.
    public static func read(_ path: String) throws(GatewayError) -> (tokens: OAuthTokens, written: Date) {
        // The contents and their time from one open file: a refresh replaces the file by a rename, and the time of the
        // new one read beside the contents of the old would make stale tokens look fresh.
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw GatewayError(.configuration, "cannot read the token file \(path); sign in with haapi-gateway login first")
        }
        defer { try? handle.close() }
        var status = stat()
        guard fstat(handle.fileDescriptor, &status) == 0 else {
            throw GatewayError(.configuration, "cannot read the token file \(path); sign in with haapi-gateway login first")
        }
        if let distrust = distrust(status, path: path) { throw distrust }
        guard let data = try? handle.readToEnd() ?? Data() else {
            throw GatewayError(.configuration, "cannot read the token file \(path); sign in with haapi-gateway login first")
        }
        let written = Date(timeIntervalSince1970: Double(status.st_mtim.tv_sec) + Double(status.st_mtim.tv_nsec) / 1e9)
        return (try tokens(in: data, path: path), written)
    }

    /// The tokens of a token file's contents, with the DPoP key it holds for them.
    /// - Parameters:
    ///   - data: The file's contents.
    ///   - path: The file, for the messages.
    /// - Throws: ``GatewayError`` (`configuration`) when `data` is not a success outcome with a token model, or holds a
    ///   DPoP key that cannot be read.
    public static func tokens(in data: Data, path: String) throws(GatewayError) -> OAuthTokens {
        struct Document: Decodable {
            let outcome: String
            let token: OAuthTokens?
            let dpopPrivateKey: String?
        }
        guard let document = try? JSONDecoder().decode(Document.self, from: data), document.outcome == "success", var tokens = document.token else {
            throw GatewayError(.configuration, "\(path) is not a token file written by haapi-gateway")
        }
        if let pem = document.dpopPrivateKey {
            guard let key = try? DPoPKey(pem: pem) else { throw GatewayError(.configuration, "\(path) holds a DPoP key that cannot be read") }
            tokens.dpopKey = key
        }
        return tokens
    }

    /// Why a token file with `status` is not to be trusted, or nil: it must be the user's own (or root's) and writable by
    /// its owner only, as `login` writes it (0600), since what it says decides where a refresh sends the client secret
    /// (``TokenOrigin``) and which token the tools hand on. The file is judged where a symlink leads, as it is read.
    static func distrust(_ status: stat, path: String) -> GatewayError? {
        let owner = status.st_uid
        if owner != geteuid() && owner != 0 {
            return GatewayError(
                .configuration,
                "the token file \(path) belongs to another user (uid \(owner)); it is not used: sign in again with haapi-gateway login"
            )
        }
        let mode = Int(status.st_mode) & 0o777
        if mode & 0o022 != 0 {
            return GatewayError(
                .configuration,
                "the token file \(path) can be written by other users (mode \(String(mode, radix: 8))); it is not used: chmod 600 it, or sign in again with haapi-gateway login"
            )
        }
        return nil
    }

    /// Whether the token file at `path` holds tokens of the embedded demo upstream (marked so by `login`): that server
    /// ended with the `login` that issued them, so nothing can use, refresh or revoke them any more. False for a file
    /// that cannot be read.
    public static func issuedByEmbeddedDemo(_ path: String) -> Bool {
        FileManager.default.contents(atPath: path).map(issuedByEmbeddedDemo(in:)) ?? false
    }

    /// Whether a token file's contents are marked as tokens of the embedded demo upstream (``issuedByEmbeddedDemo(_:)``);
    /// false for contents that are not such a document.
    public static func issuedByEmbeddedDemo(in data: Data) -> Bool {
        struct Mark: Decodable {
            let embeddedDemoUpstream: Bool?
        }
        return (try? JSONDecoder().decode(Mark.self, from: data))?.embeddedDemoUpstream == true
    }

    /// Where the tokens of the file came from (``TokenOrigin``, recorded by `login`); nil for a file without it (an
    /// older `login`'s, the embedded demo upstream's) or one that cannot be read.
    public static func origin(of path: String) -> TokenOrigin? {
        // Judged as the tokens are: a file another user could have written says nothing about where to refresh.
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var status = stat()
        guard fstat(handle.fileDescriptor, &status) == 0, distrust(status, path: path) == nil, let data = try? handle.readToEnd() else { return nil }
        return origin(in: data)
    }

    /// Where the tokens of a token file's contents came from (``origin(of:)``); nil for contents without it.
    public static func origin(in data: Data) -> TokenOrigin? {
        struct Recorded: Decodable {
            let origin: TokenOrigin?
        }
        return (try? JSONDecoder().decode(Recorded.self, from: data))?.origin
    }

    /// Writes a success outcome (mode 0600, atomic).
    /// - Parameters:
    ///   - embeddedDemo: Whether the tokens come from the embedded demo upstream (the file is marked so).
    ///   - origin: Where they came from, recorded as `origin`.
    /// - Throws: ``GatewayError`` when the outcome has no tokens or the file cannot be written.
    public static func write(
        _ outcome: CompletionOutcome,
        to path: String,
        embeddedDemo: Bool = false,
        origin: TokenOrigin? = nil
    ) throws(GatewayError) {
        guard outcome.token != nil else { throw GatewayError(.internalError, "only a successful sign-in is written to the token file") }
        let document: [UInt8]
        do {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            document =
                embeddedDemo || origin != nil
                ? Array(try encoder.encode(Annotated(outcome: outcome, embeddedDemo: embeddedDemo, origin: origin)))
                : try outcome.encoded()
        } catch {
            throw GatewayError(.internalError, "the tokens could not be encoded")
        }
        try AtomicFile.write(document, to: path)
    }

    /// An outcome document with `"embeddedDemoUpstream":true` or `"origin":{…}` among its members.
    private struct Annotated: Encodable {
        let outcome: CompletionOutcome
        let embeddedDemo: Bool
        let origin: TokenOrigin?

        enum CodingKeys: String, CodingKey {
            case embeddedDemoUpstream, origin
        }

        func encode(to encoder: any Encoder) throws {
            try outcome.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            if embeddedDemo { try container.encode(true, forKey: .embeddedDemoUpstream) }
            try container.encodeIfPresent(origin, forKey: .origin)
        }
    }
}
