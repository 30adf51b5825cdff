import Logging
import Synchronization

/// What a client learned about proving its code exchanges: unknown until the first exchange, then whether the server
/// issues token-bound authorization codes (it refused an exchange without a DPoP proof) or not. Logged once per client
/// at `notice`, so an operator sees which server setting was found.
final class CodeExchangeProof: Sendable {
    private static let unknown = 0
    private static let notRequired = 1
    private static let required = 2
    private let state = Atomic<Int>(CodeExchangeProof.unknown)

    /// Whether exchanges are proved from the start (the server demanded a proof before).
    var isRequired: Bool { state.load(ordering: .relaxed) == Self.required }

    /// Records what an exchange showed; the first finding (and a change to "required") is logged.
    func found(required: Bool, logger: Logger) {
        let value = required ? Self.required : Self.notRequired
        let previous = state.exchange(value, ordering: .relaxed)
        guard previous != value else { return }
        if required {
            logger.notice(
                "the upstream issues token-bound authorization codes (it refused the code exchange without a DPoP proof): every exchange is proved with the flow's DPoP key from now on, and the tokens are DPoP-bound")
        } else {
            logger.notice("the upstream exchanged an authorization code without a DPoP proof: codes are not token-bound")
        }
    }
}
