import HAAPI

/// Turns a step into a template context: every form action (selector options flattened), links as gateway posts,
/// image links as `<img>`, messages and notices. All text is rendered escaped by the templates.
struct StepPageBuilder {
    let snapshot: SessionSnapshot
    /// The refresh interval when a polling step names none.
    var defaultPollSeconds = 2

    /// The template to use for `step`: `view-<viewName>`, then `step-<stepKind>`, then `step`.
    static func templateCandidates(for step: Representation) -> [String] {
        var names: [String] = []
        if let viewName = step.metadata?.viewName, !viewName.isEmpty {
            names.append("view-" + String(viewName.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }))
        }
        names.append("step-" + step.stepKind.rawValue)
        names.append("step")
        return names
    }

    func context(for step: Representation) -> [String: Any] {
        var forms: [[String: Any]] = []
        var externalLinks: [[String: Any]] = []
        for (index, action) in step.actions.enumerated() {
            collect(action, address: ActionAddress([String(index)]), into: &forms, external: &externalLinks)
        }
        var links: [[String: Any]] = []
        var images: [[String: Any]] = []
        for (index, link) in step.links.enumerated() {
            if link.isImage {
                if link.href.lowercased().hasPrefix("data:image/") { images.append(["src": link.href, "alt": link.title ?? "Image"]) }
            } else {
                links.append(["action": "/step/\(snapshot.version)/link/\(index)", "title": link.title ?? link.rel, "csrf": snapshot.csrfToken])
            }
        }
        // A `heading` message is the page's h1; without one, the first action's title names the page.
        let heading = step.messages.firstIndex { $0.classList.contains("heading") }
        let title = heading.map { step.messages[$0].text } ?? step.actions.first?.title ?? step.actions.first?.form?.title ?? "Sign in"
        let messages: [[String: Any]] = step.messages.indices.filter { $0 != heading }.map { index in
            let message = step.messages[index]
            return ["text": message.text, "isError": message.classList.contains("error"), "classes": Self.cssClasses(message.classList)]
        }
        return [
            "title": title,
            "csrf": snapshot.csrfToken,
            "notices": snapshot.notices,
            "hasNotices": !snapshot.notices.isEmpty,
            "messages": messages,
            "forms": forms,
            "links": links,
            "images": images,
            "externalLinks": externalLinks,
            "stepType": step.type.rawValue,
        ].merging(refresh(for: step)) { _, new in new }
    }

    /// HAAPI message classes (`info`, `warning`, `heading`, `userName`, ...) as CSS classes, each prefixed and reduced to
    /// letters, digits and hyphens.
    static func cssClasses(_ classList: [String]) -> String {
        classList.map { "message-" + String($0.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) }.joined(separator: " ")
    }

    /// A pending polling step refreshes itself (no script) to the poll route at the server's interval.
    private func refresh(for step: Representation) -> [String: Any] {
        guard step.stepKind == .polling, step.polling?.status == .pending else { return ["hasRefresh": false] }
        let named = step.polling?.interval ?? step.properties?["pollInterval"]?.scalarText.flatMap(Double.init)
        let seconds = max(1, min(60, named.map { Int($0.rounded(.up)) } ?? defaultPollSeconds))
        return ["hasRefresh": true, "refreshSeconds": String(seconds), "refreshURL": "/step/\(snapshot.version)/poll"]
    }

    private func collect(_ action: Action, address: ActionAddress, into forms: inout [[String: Any]], external: inout [[String: Any]]) {
        if let options = action.selectorOptions {
            for (index, option) in options.enumerated() {
                collect(option, address: address.appending(String(index)), into: &forms, external: &external)
            }
        } else if let model = action.form {
            forms.append(formContext(action: action, model: model, address: address))
        } else if let operation = action.clientOperation {
            if operation.name == ClientOperation.Name.externalBrowserFlow, let href = operation.arguments?["href"]?.stringValue,
                href.lowercased().hasPrefix("https://") || href.lowercased().hasPrefix("http://")
            {
                external.append(["href": href, "title": action.title ?? "Continue in the browser"])
            }
            for (index, next) in operation.continueActions.enumerated() {
                collect(next, address: address.appending("c\(index)"), into: &forms, external: &external)
            }
            for (index, next) in operation.errorActions.enumerated() {
                collect(next, address: address.appending("e\(index)"), into: &forms, external: &external)
            }
        }
    }

    private func formContext(action: Action, model: FormModel, address: ActionAddress) -> [String: Any] {
        let fields = model.fields.filter { $0.type != .hidden }.map { fieldContext($0, address: address) }
        return [
            "action": "/step/\(snapshot.version)/action/\(address)",
            "title": model.title ?? "",
            "hasTitle": model.title != nil,
            "button": action.kind == .poll ? "Check now" : (action.title ?? model.actionTitle ?? "Continue"),
            "fields": fields,
            "csrf": snapshot.csrfToken,
            "kind": action.kind.rawValue,
        ]
    }

    private func fieldContext(_ field: Field, address: ActionAddress) -> [String: Any] {
        let id = "f-" + address.segments.joined(separator: "-") + "-" + String(field.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        let error = snapshot.fieldErrors[field.name]
        var context: [String: Any] = [
            "id": id,
            "name": field.name,
            "label": field.label ?? field.placeholder ?? field.name,
            "placeholder": field.placeholder ?? "",
            "required": field.required == true,
            "readonly": field.readonly == true,
            "hasError": error != nil,
            "error": error ?? "",
            "errorID": id + "-error",
        ]
        context["hasPlaceholder"] = !(field.placeholder ?? "").isEmpty
        context["hasMinLength"] = field.minLength != nil
        context["minLength"] = field.minLength.map(String.init) ?? ""
        context["hasMaxLength"] = field.maxLength != nil
        context["maxLength"] = field.maxLength.map(String.init) ?? ""
        switch field.type {
        case .checkbox:
            context["isCheckbox"] = true
            context["checked"] = field.checked == true
        case .select:
            context["isSelect"] = true
            let selected = snapshot.values[field.name]
            context["options"] = field.options.map { option -> [String: Any] in
                ["value": option.value, "label": option.label, "selected": selected == option.value || (selected == nil && option.selected)]
            }
        default:
            context["isInput"] = true
            let (type, autocomplete) = Self.inputType(for: field)
            context["inputType"] = type
            context["autocomplete"] = autocomplete
            context["value"] = field.type == .password ? "" : (snapshot.values[field.name] ?? field.value ?? "")
        }
        return context
    }

    private static func inputType(for field: Field) -> (String, String) {
        switch field.type {
        case .password: return ("password", "current-password")
        case .username: return ("text", "username")
        default:
            switch field.textKind {
            case "email": return ("email", "email")
            case "tel": return ("tel", "tel")
            case "url": return ("url", "url")
            case "number": return ("text", "one-time-code")
            default: return ("text", "off")
            }
        }
    }
}
