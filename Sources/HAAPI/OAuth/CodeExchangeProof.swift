import Logging
import Synchronization

/// What a client learned about proving its code exchanges (``CodeExchangeFinding``): unknown until the first exchange,
/// then whether the server issues token-bound authorization codes (it refused an exchange without a DPoP proof) or not.
/// A finding an exchange changes is logged once per client at `notice`, so an operator sees which server setting was
/// found, and told to the observer (``observe(_:)``), so a caller can keep it past this process.
final class CodeExchangeProof: Sendable {
    /// Called with a finding an exchange changed.
    typealias Observer = @Sendable (CodeExchangeFinding) async -> Void

    private static let unknown = 0
    private static let notRequired = 1
    private static let required = 2
    private let state = Atomic<Int>(CodeExchangeProof.unknown)
    private let observer = Mutex<Observer?>(nil)

    /// Whether exchanges are proved from the start (the server demanded a proof before, or the caller said so).
    var isRequired: Bool { state.load(ordering: .relaxed) == Self.required }

    /// What is known now.
    var finding: CodeExchangeFinding {
        switch state.load(ordering: .relaxed) {
        case Self.required: .proofRequired
        case Self.notRequired: .proofNotRequired
        default: .unknown
        }
    }

    /// Takes `finding` as known, without logging it or telling the observer (the caller knows it already).
    func assume(_ finding: CodeExchangeFinding) {
        state.store(Self.value(of: finding), ordering: .relaxed)
    }

    /// Sets (or, with nil, removes) the observer of changed findings.
    func observe(_ observer: Observer?) {
        self.observer.withLock { $0 = observer }
    }

    /// Records what an exchange showed; a changed finding is logged.
    /// - Returns: The new finding when it changed (to be told to the observer with ``report(_:)``), else nil.
    func found(required: Bool, logger: FlowLogger) -> CodeExchangeFinding? {
        let finding: CodeExchangeFinding = required ? .proofRequired : .proofNotRequired
        let previous = state.exchange(Self.value(of: finding), ordering: .relaxed)
        guard previous != Self.value(of: finding) else { return nil }
        if required {
            logger.notice(
                "the upstream issues token-bound authorization codes (it refused the code exchange without a DPoP proof): every exchange is proved with the flow's DPoP key from now on, and the tokens are DPoP-bound"
            )
        } else {
            logger.notice("the upstream exchanged an authorization code without a DPoP proof: codes are not token-bound")
        }
        return finding
    }

    /// Records that the server refused an authorize request without `dpop_jkt` and accepted it with one (Curity 11.4's
    /// `authorization-code-dpop-binding` = `required`, [DPOP114]): its codes are bound to the flow's key, so exchanges are
    /// proved, the same finding as a refused exchange. A changed finding is logged.
    /// - Returns: The new finding when it changed (to be told to the observer with ``report(_:)``), else nil.
    func foundDPoPJKTRequired(logger: FlowLogger) -> CodeExchangeFinding? {
        let previous = state.exchange(Self.required, ordering: .relaxed)
        guard previous != Self.required else { return nil }
        logger.notice(
            "the upstream binds authorization codes to a DPoP key (it refused the authorize request without dpop_jkt and accepted it with one; Curity: the client's authorization-code-dpop-binding is required): every authorize request carries dpop_jkt and every exchange is proved with the flow's DPoP key from now on, and the tokens are DPoP-bound"
        )
        return .proofRequired
    }

    /// Tells the observer, if any, of a changed finding, and waits for it.
    func report(_ finding: CodeExchangeFinding) async {
        guard let observer = observer.withLock({ $0 }) else { return }
        await observer(finding)
    }

    private static func value(of finding: CodeExchangeFinding) -> Int {
        switch finding {
        case .unknown: unknown
        case .proofNotRequired: notRequired
        case .proofRequired: required
        }
    }
}
