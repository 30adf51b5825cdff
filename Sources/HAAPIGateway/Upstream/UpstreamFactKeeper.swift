import HAAPI
import Logging
import Synchronization

/// Keeps what the gateway's HAAPI client learns about its upstream past the process, in an ``UpstreamFactStore``: whether
/// the upstream issues token-bound authorization codes (Curity's per-client `issue-token-bound-authorization-code`: the
/// exchange must carry a DPoP proof by the flow's key, else `invalid_dpop_proof` [TOKENBIND], [TBIND], notes 5).
///
/// Without it every process learns it at its first exchange, which goes without a proof; a server that uses a code up
/// when it refuses its exchange (Curity does not document whether it does) then fails the first sign-in of every
/// process: each `login` run, each restart, each replica. With it, the finding is read when the upstream is connected
/// (``adopt(_:)``; with a shared store, again before an exchange as long as it is unknown: ``refreshIfUnknown()``) and
/// written when an exchange changes it. A failure to read or write is a warning, never a failed sign-in.
final class UpstreamFactKeeper: Sendable {
    let store: any UpstreamFactStore
    let logger: Logger
    /// The client whose findings are kept, its key, and whether the store was read for it.
    private let state = Mutex<(client: HAAPIClient, key: UpstreamFactKey, consulted: Bool)?>(nil)

    init(store: any UpstreamFactStore, logger: Logger) {
        self.store = store
        self.logger = logger
    }

    /// Takes `client` (the upstream was just connected): gives it what the store holds for its issuer and client id, and
    /// keeps what its exchanges learn.
    func adopt(_ client: HAAPIClient) async {
        let key = UpstreamFactKey(client)
        state.withLock { $0 = (client, key, false) }
        let store = store
        let logger = logger
        client.onCodeExchangeFindingChange { finding in
            await Self.keep(finding, for: key, in: store, logger: logger)
        }
        await refreshIfUnknown()
    }

    /// Before a code exchange: while the client does not know whether its upstream issues token-bound codes, what the
    /// store holds (read once; a shared store, which other replicas write, each time, one indexed row). Nothing with
    /// `upstream.bindTokensToDPoP`, which proves every exchange anyway (and so never learns the finding).
    func refreshIfUnknown() async {
        guard let current = state.withLock({ $0 }), !current.client.configuration.bindTokensToDPoP,
            current.client.codeExchangeFinding == .unknown, !current.consulted || store.isShared, store.isReady
        else { return }
        let (client, key) = (current.client, current.key)
        let finding: CodeExchangeFinding
        do throws(UpstreamFactError) {
            finding = try await store.finding(for: key)
        } catch {
            // A file that cannot be read is not read again by this process; a database is asked again at the next exchange.
            if !store.isShared { markConsulted(client) }
            logger.warning(
                "what the gateway learned about the upstream's code exchanges could not be read; the next exchange learns it again",
                metadata: ["place": "\(store.place)", "error": "\(error.message)"]
            )
            return
        }
        markConsulted(client)
        guard finding != .unknown, client.codeExchangeFinding == .unknown else { return }
        client.assumeCodeExchangeFinding(finding)
        switch finding {
        case .proofRequired:
            logger.notice(
                "the upstream issues token-bound authorization codes (learned before, kept in \(store.place)): every code exchange is proved with the flow's DPoP key from the start, and the tokens are DPoP-bound",
                metadata: ["issuer": "\(key.issuer)", "clientID": "\(key.clientID)"]
            )
        case .proofNotRequired, .unknown:
            logger.info(
                "the upstream's codes are not token-bound (learned before, kept in \(store.place))",
                metadata: ["issuer": "\(key.issuer)", "clientID": "\(key.clientID)"]
            )
        }
    }

    private func markConsulted(_ client: HAAPIClient) {
        state.withLock { if let current = $0, current.client === client { $0?.consulted = true } }
    }

    /// Writes a changed finding; a failure is a warning.
    private static func keep(_ finding: CodeExchangeFinding, for key: UpstreamFactKey, in store: any UpstreamFactStore, logger: Logger) async {
        do throws(UpstreamFactError) {
            try await store.record(finding, for: key)
            logger.info(
                "what the gateway learned about the upstream's code exchanges is kept",
                metadata: ["place": "\(store.place)", "finding": "\(finding.rawValue)"]
            )
        } catch {
            logger.warning(
                "what the gateway learned about the upstream's code exchanges could not be kept; the next process learns it again",
                metadata: ["place": "\(store.place)", "finding": "\(finding.rawValue)", "error": "\(error.message)"]
            )
        }
    }
}
