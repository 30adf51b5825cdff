import HAAPI

/// What a HAAPI problem does to a sign-in's page, as Curity's SDKs treat problems (notes 3.9, [UIKIT]
/// `formatErrorStepData`): an input problem keeps the step with its messages, field errors and links; every other problem
/// ends the flow with its messages, its links kept usable. Nothing the problem says vanishes from the page.
enum ProblemPage: Equatable {
    /// The step stays, with these notices and field errors; `step` is the step with the problem's links added.
    case keepStep(notices: [PageText], fieldErrors: [String: PageText], step: Representation?)
    /// The flow ends: `message` for the person, `failure` for the sinks, and the problem's links (images left out).
    case endFlow(message: PageText, failure: CompletionOutcome.Failure, links: [Link])

    /// What `problem` does to a page showing `step` (nil when no step is shown).
    init(_ problem: Problem, shown step: Representation?) {
        let texts = problem.messages.map { PageText.upstream($0.text) }
        if problem.kind.isInputProblem {
            let fallback: MessageKey = problem.kind == .invalidInput ? .invalidValues : .incorrectCredentials
            var notices = texts.isEmpty ? [problem.title.map(PageText.upstream) ?? .gateway(fallback)] : texts
            var fieldErrors: [String: PageText] = [:]
            let shown = step.map(Self.fieldNames(of:)) ?? []
            for field in problem.invalidFields {
                if shown.contains(field.name) {
                    fieldErrors[field.name] = (field.detail ?? field.reason).map(PageText.upstream) ?? .gateway(.invalidValue)
                } else {
                    // A field the page does not show (hidden, or not on this step): the error is still said, never dropped.
                    notices.append(
                        .gateway(.fieldNotOnPage, arguments: ["field": field.name, "reason": field.detail ?? field.reason ?? "invalidValue"])
                    )
                }
            }
            let withLinks = problem.links.isEmpty ? step : step?.adding(links: problem.links)
            self = .keepStep(notices: notices, fieldErrors: fieldErrors, step: withLinks)
            return
        }
        // Everything the problem says is on the page: its title, messages, `detail` and `error_description`.
        var said: [String] = []
        for text in [problem.title].compactMap({ $0 }) + problem.messages.map(\.text) + [problem.detail, problem.errorDescription].compactMap({ $0 })
        where !text.isEmpty && !said.contains(text) {
            said.append(text)
        }
        let message = said.joined(separator: " ")
        let links = problem.links.filter { !$0.isImage }
        switch problem.kind {
        case .errorAuthorizationResponse:
            // The flow ended with an OAuth error (`error`, `error_description`, `iss`): that error is the outcome.
            self = .endFlow(
                message: .upstream(message.isEmpty ? problem.error ?? "access_denied" : message),
                failure: .init(error: problem.error ?? "access_denied", errorDescription: problem.errorDescription ?? problem.title),
                links: links
            )
        case .sessionAndTokenMismatch:
            // The flow's session no longer matches the HAAPI token and key (it timed out upstream): start again [RN].
            self = .endFlow(
                message: .gateway(.signInExpired),
                failure: .init(error: "session_expired", errorDescription: problem.title ?? "the upstream session expired"),
                links: links
            )
        default:
            // Any other problem is named by its type URI (or its code), with its texts.
            self = .endFlow(
                message: message.isEmpty ? .gateway(.signInNotCompleted) : .upstream(message),
                failure: .init(
                    error: problem.error ?? problem.code ?? problem.type,
                    errorDescription: problem.errorDescription ?? problem.detail ?? problem.title
                ),
                links: links
            )
        }
    }

    /// The names of every field a person sees on the page of `step`, hidden ones excluded: forms, selector options, and
    /// the nested actions of client operations and unknown templates (a form's own continue actions show only after a
    /// continue-same-step, which makes them the step's actions).
    static func fieldNames(of step: Representation) -> Set<String> {
        var names: Set<String> = []
        func collect(_ action: Action) {
            for field in action.form?.fields ?? [] where field.type != .hidden { names.insert(field.name) }
            switch action.model {
            case .selector(let options): options.forEach(collect)
            case .clientOperation, .unknown: (action.continueActions + action.errorActions).forEach(collect)
            case .form: break
            }
        }
        step.actions.forEach(collect)
        return names
    }
}
