extension Representation {
    /// The step with every relative href (forms, nested options and continue actions, links) made absolute on `base`,
    /// as Curity writes them on its external URL ([EXUSER]: `"href": "https://localhost:8443/dev/authn/…"`).
    func withAbsoluteHrefs(on base: String) -> Representation {
        var step = self
        step.actions = actions?.map { $0.withAbsoluteHrefs(on: base) }
        step.links = links?.map { $0.withAbsoluteHref(on: base) }
        return step
    }
}

extension Action {
    fileprivate func withAbsoluteHrefs(on base: String) -> Action {
        var action = self
        switch model {
        case .form(var form):
            form.href = Self.absolute(form.href, on: base)
            form.continueActions = form.continueActions?.map { $0.withAbsoluteHrefs(on: base) }
            action.model = .form(form)
        case .selector(var selector):
            selector.options = selector.options.map { $0.withAbsoluteHrefs(on: base) }
            action.model = .selector(selector)
        case .clientOperation(var operation):
            operation.continueActions = operation.continueActions.map { $0.withAbsoluteHrefs(on: base) }
            operation.errorActions = operation.errorActions?.map { $0.withAbsoluteHrefs(on: base) }
            action.model = .clientOperation(operation)
        }
        return action
    }

    /// `href` on `base` when it is a path; anything else (absolute URLs, `data:` and custom schemes) as it is.
    static func absolute(_ href: String, on base: String) -> String {
        href.hasPrefix("/") && !href.hasPrefix("//") ? base + href : href
    }
}

extension Link {
    fileprivate func withAbsoluteHref(on base: String) -> Link {
        var link = self
        link.href = Action.absolute(href, on: base)
        return link
    }
}
