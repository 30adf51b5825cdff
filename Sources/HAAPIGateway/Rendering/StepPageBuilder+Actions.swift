import Foundation
import HAAPI

extension StepPageBuilder {
    /// Adds what `action` offers, addressed `address`: a form, a client operation the page carries out or says it cannot,
    /// a selector's options (its title heading them), or an action of a template the gateway does not know, which is
    /// never dropped.
    func collect(_ action: Action, address: ActionAddress, into forms: inout [TemplateObject], operations: inout [TemplateObject]) {
        if let options = action.selectorOptions {
            let first = forms.count
            for (index, option) in options.enumerated() {
                collect(option, address: address.appending(String(index)), into: &forms, operations: &operations)
            }
            // The selector's own title (Duo's device, "Device selection") heads its options.
            if let title = action.title, !title.isEmpty, first < forms.count {
                var titles: [TemplateValue] = [.object(["text": .string(title)])]
                if case .list(let existing)? = forms[first]["groupTitles"] { titles += existing }
                forms[first]["groupTitles"] = .list(titles)
            }
        } else if let model = action.form {
            forms.append(formContext(action: action, model: model, address: address))
        } else if let operation = action.clientOperation {
            let (context, runnable) = operationContext(action, operation, address: address)
            operations.append(context)
            if runnable {
                collectNested(
                    action,
                    address: address,
                    resumable: operation.name == ClientOperation.Name.externalBrowserFlow,
                    into: &forms,
                    operations: &operations
                )
            } else {
                collectNested(action, address: address, continuing: false, into: &forms, operations: &operations)
            }
        } else if case .unknown(let template, let model) = action.model {
            collectUnknown(action, template: template, model: model, address: address, into: &forms, operations: &operations)
        }
    }

    /// A client operation's page context, and whether the page carries it out (its continue actions follow then). Only
    /// the external browser and BankID can be carried out from a plain page; for any other (WebAuthn, which the page's
    /// script runs, Encap, unknown) the page says so and offers the operation's error actions, the fallbacks.
    private func operationContext(_ action: Action, _ operation: ClientOperation, address: ActionAddress) -> (TemplateObject, runnable: Bool) {
        let href = operation.arguments?["href"]?.stringValue ?? ""
        let scheme = href.prefix { $0 != ":" }.lowercased()
        var context: TemplateObject = ["title": .string(action.title ?? ""), "href": .string(href)]
        switch operation.name {
        case ClientOperation.Name.externalBrowserFlow where scheme == "https" || scheme == "http":
            context.merge(externalBrowserContext(title: action.title, href: href)) { _, new in new }
            return (context, true)
        case ClientOperation.Name.bankID where scheme == "bankid":
            context["isBankID"] = true
            context["openApp"] = .string(text(.bankIDOpenApp))
            return (context, true)
        case ClientOperation.Name.webAuthnRegistration, ClientOperation.Name.webAuthnAuthentication:
            context.merge(
                WebAuthnOperationContext(
                    operation: operation,
                    title: action.title,
                    address: address,
                    snapshot: snapshot,
                    gatewayHost: origin.flatMap { URL(string: $0)?.host }
                )
                .context(text: text, fieldError: { name in snapshot.fieldErrors[name].map { messages.text($0, language: language) } })
            ) { _, new in new }
            return (context, false)
        default:
            context["isUnsupported"] = true
            context["unsupportedTitle"] = .string(text(.unsupportedOperationTitle))
            context["unsupported"] = .string(text(.unsupportedOperation, ["method": action.title ?? operation.name]))
            context["hasFallbacks"] = .bool(!operation.errorActions.isEmpty)
            context["otherWays"] = .string(text(.otherWays))
            return (context, false)
        }
    }

    /// An action of a template this gateway does not know: a pre-release server's external-browser `launch` is carried
    /// out; any other is never dropped: a model shaped like a form is offered as one (``Action/form``), otherwise its
    /// title and a clear "not supported here"; its nested actions follow.
    private func collectUnknown(
        _ action: Action,
        template: String,
        model: JSONValue?,
        address: ActionAddress,
        into forms: inout [TemplateObject],
        operations: inout [TemplateObject]
    ) {
        let href = model?["href"]?.stringValue ?? ""
        let scheme = href.prefix { $0 != ":" }.lowercased()
        if template.trimmingCharacters(in: .whitespaces) == "launch", scheme == "https" || scheme == "http" {
            // Pre-release servers' external-browser launch (notes 3.3, sample legacy/launch-external-browser-prerelease):
            // carried out like today's `external-browser-flow` operation.
            operations.append(externalBrowserContext(title: action.title, href: href))
            collectNested(action, address: address, resumable: true, into: &forms, operations: &operations)
        } else if let form = action.form {
            forms.append(formContext(action: action, model: form, address: address))
        } else {
            let name = action.title ?? template
            operations.append([
                "title": .string(name), "isUnsupported": true, "unsupportedTitle": .string(name),
                "unsupported": .string(text(.unsupportedAction, ["method": name])), "hasFallbacks": .bool(!action.errorActions.isEmpty),
                "otherWays": .string(text(.otherWays)),
            ])
            collectNested(action, address: address, into: &forms, operations: &operations)
        }
    }

    /// The continue actions (unless `continuing` is false) and error actions of `action`, addressed `c<i>` and `e<i>` below
    /// it. With `resumable`, a continue form with a context field is the one an external browser's resume code goes into
    /// (the page's script fills and posts it).
    private func collectNested(
        _ action: Action,
        address: ActionAddress,
        continuing: Bool = true,
        resumable: Bool = false,
        into forms: inout [TemplateObject],
        operations: inout [TemplateObject]
    ) {
        if continuing {
            for (index, next) in action.continueActions.enumerated() {
                collect(next, address: address.appending("c\(index)"), into: &forms, operations: &operations)
                if resumable, next.form?.fields.contains(where: { $0.type == .context }) == true { forms[forms.count - 1]["isResume"] = true }
            }
        }
        for (index, next) in action.errorActions.enumerated() {
            collect(next, address: address.appending("e\(index)"), into: &forms, operations: &operations)
        }
    }

    /// A link that opens the external browser at `href` (with the gateway's return address) and its help text.
    private func externalBrowserContext(title: String?, href: String) -> TemplateObject {
        [
            "isExternalBrowser": true, "href": .string(externalBrowserLaunchURL(href)), "help": .string(text(.externalBrowserHelp)),
            "title": .string((title ?? "").isEmpty ? text(.continueInBrowser) : title ?? ""),
        ]
    }
}
