import Foundation
import HAAPI
import Synchronization

/// What the gateway learned about its upstreams, in a small JSON file (mode 0600, written atomically): beside
/// `callbacks.spoolFile` (`<spool>.upstream.json`) for a gateway that keeps its sessions in memory, and beside the token
/// file (`.haapi-gateway-upstream.json`) for `login`. Read when the upstream is connected, written when a finding changes:
///
/// ```json
/// {"upstreams":[{"issuer":"https://idsvr.example.com/oauth/v2/oauth-anonymous","clientID":"gateway",
///   "tokenBoundCodes":true,"learnedAt":"2026-11-24T09:12:03Z"}]}
/// ```
///
/// One entry per issuer and client id, the latest ``maximumEntries`` kept. Nothing secret is in it; a file that is not
/// such a document is an error value (and is replaced at the next write).
final class UpstreamFactFile: UpstreamFactStore {
    /// The file.
    let path: String
    /// The most entries kept (the oldest learned are dropped): a `login` run against many servers does not grow it.
    static let maximumEntries = 32
    /// Read-modify-write of the file, one at a time in this process.
    private let lock = Mutex(())

    init(path: String) {
        self.path = path
    }

    /// The file beside a callback spool file.
    static func besideSpool(_ spoolPath: String) -> UpstreamFactFile {
        UpstreamFactFile(path: spoolPath + ".upstream.json")
    }

    var place: String { path }
    var isShared: Bool { false }
    var isReady: Bool { true }

    func finding(for key: UpstreamFactKey) async throws(UpstreamFactError) -> CodeExchangeFinding {
        try lock.withLock { _ throws(UpstreamFactError) -> CodeExchangeFinding in
            guard let entry = try read().upstreams.first(where: { $0.issuer == key.issuer && $0.clientID == key.clientID }) else { return .unknown }
            return entry.tokenBoundCodes ? .proofRequired : .proofNotRequired
        }
    }

    func record(_ finding: CodeExchangeFinding, for key: UpstreamFactKey) async throws(UpstreamFactError) {
        try lock.withLock { _ throws(UpstreamFactError) in
            // A file that cannot be read is replaced: what it held is learned again.
            var document = (try? read()) ?? Document(upstreams: [])
            document.upstreams.removeAll { $0.issuer == key.issuer && $0.clientID == key.clientID }
            if finding != .unknown {
                document.upstreams.append(
                    Entry(issuer: key.issuer, clientID: key.clientID, tokenBoundCodes: finding == .proofRequired, learnedAt: Date())
                )
            }
            if document.upstreams.count > Self.maximumEntries {
                document.upstreams = Array(document.upstreams.sorted { $0.learnedAt > $1.learnedAt }.prefix(Self.maximumEntries))
            }
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .iso8601
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            let bytes: Data
            do {
                bytes = try encoder.encode(document)
            } catch {
                throw UpstreamFactError("the upstream facts could not be encoded")
            }
            do throws(GatewayError) {
                try AtomicFile.write([UInt8](bytes) + [0x0A], to: path)
            } catch {
                throw UpstreamFactError(error.message)
            }
        }
    }

    private func read() throws(UpstreamFactError) -> Document {
        guard FileManager.default.fileExists(atPath: path) else { return Document(upstreams: []) }
        guard let data = FileManager.default.contents(atPath: path) else { throw UpstreamFactError("cannot read \(path)") }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let document = try? decoder.decode(Document.self, from: data) else {
            throw UpstreamFactError("\(path) is not a file of upstream facts written by haapi-gateway")
        }
        return document
    }

    /// The file's document.
    private struct Document: Codable {
        var upstreams: [Entry]
    }

    /// One upstream and client id, and what was learned of them.
    private struct Entry: Codable {
        let issuer: String
        let clientID: String
        /// Whether the upstream issues token-bound authorization codes to this client (it refused an exchange without a proof).
        let tokenBoundCodes: Bool
        /// When it was learned.
        let learnedAt: Date
    }
}
