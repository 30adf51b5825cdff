import Foundation
import HAAPI

/// Turns a step into a template context: every form action (selector options flattened), links as gateway posts,
/// image links as `<img>`, messages and notices. All text is rendered escaped by the templates.
struct StepPageBuilder {
    let snapshot: SessionSnapshot
    /// The gateway's texts and the page's language.
    let messages: MessageCatalogue
    let language: String
    /// The refresh interval when a polling step names none.
    var defaultPollSeconds = 2
    /// Whether fields carry `autocomplete` hints (off in kiosk mode: a shared screen must not remember anyone).
    var autocomplete = true
    /// The gateway's origin as the browser reaches it (`https://login.example.com`), for the address an external
    /// browser returns to; nil leaves the launch link as the server sent it (the person pastes the code instead).
    var origin: String?

    /// Where an external browser returns with the resume code (`_resume_nonce`).
    static let externalBrowserReturnPath = "/external-browser/return"

    /// The template to use for `step`: `view-<viewName>`, then `step-<stepKind>`, then `step`.
    static func templateCandidates(for step: Representation) -> [String] {
        var names: [String] = []
        if let viewName = step.metadata?.viewName, !viewName.isEmpty {
            names.append("view-" + templateName(viewName))
        }
        names.append("step-" + step.stepKind.rawValue)
        names.append("step")
        return names
    }

    /// A view name as part of a template name: lowercased, every character other than a letter or digit a hyphen (ASCII
    /// names, the usual ones, byte by byte).
    private static func templateName(_ viewName: String) -> String {
        guard viewName.utf8.allSatisfy({ $0 < 0x80 }) else {
            return String(viewName.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" })
        }
        return String(
            decoding: viewName.utf8.map { byte -> UInt8 in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): byte
                case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte + 32
                default: UInt8(ascii: "-")
                }
            },
            as: UTF8.self
        )
    }

    func context(for step: Representation) -> TemplateObject {
        var forms: [TemplateObject] = []
        var operations: [TemplateObject] = []
        for (index, action) in step.actions.enumerated() {
            collect(action, address: ActionAddress([String(index)]), into: &forms, operations: &operations)
        }
        var links: [TemplateObject] = []
        var images: [TemplateObject] = []
        var codes: [TemplateObject] = []
        for (index, link) in step.links.enumerated() {
            if link.isImage {
                // A `data:` image is shown as sent; an image on the upstream is fetched by the gateway with the flow's
                // credentials and served from the gateway's own origin (the browser never loads from the upstream).
                let lowered = link.href.lowercased()
                guard !lowered.hasPrefix("data:") || lowered.hasPrefix("data:image/") else { continue }
                let source = lowered.hasPrefix("data:") ? link.href : "/step/\(snapshot.version)/image/\(index)"
                images.append([
                    "src": .string(source), "alt": .string(link.title ?? text(.image)),
                    "classes": .string(Self.cssClasses([link.rel], prefix: "link-")),
                ])
            } else if link.rel == Self.activationRel {
                // An activation link that is not an image is what a phone should open: shown as a QR code the gateway
                // draws (and as the link itself, for this device), never followed by the gateway.
                if let code = Self.qrCode(for: link.href, label: link.title ?? text(.scanCode)) {
                    codes.append([
                        "svg": .string(code), "href": .string(link.href), "title": .string(link.title ?? text(.scanCode)),
                        "isWeb": .bool(Self.isWebURL(link.href)),
                    ])
                }
            } else {
                links.append([
                    "action": "/step/\(snapshot.version)/link/\(index)", "title": .string(link.title ?? link.rel),
                    "csrf": .string(snapshot.csrfToken),
                ])
            }
        }
        // A `heading` message is the page's h1; without one the step's own `title`, then the first action's title.
        let heading = step.messages.firstIndex { $0.classList.contains("heading") }
        let title =
            heading.map { step.messages[$0].text } ?? step.title ?? step.actions.first?.title ?? step.actions.first?.form?.title ?? text(.signInTitle)
        // A BankID operation's own title ("Login with BankID") heads its link, unless it is the page's heading already.
        for index in operations.indices where operations[index]["isBankID"] == true {
            if case .string(let name)? = operations[index]["title"], !name.isEmpty, name != title { operations[index]["hasTitle"] = true }
        }
        // The first form does not repeat the page's heading as its own (nor as the title of its group).
        if let first = forms.first {
            if first["title"] == .string(title) { forms[0]["hasTitle"] = false }
            if case .list(let groups)? = first["groupTitles"] {
                forms[0]["groupTitles"] = .list(groups.filter { $0 != .object(["text": .string(title)]) })
            }
        }
        let messages: [TemplateObject] = step.messages.indices.filter { $0 != heading }.map { index in
            let message = step.messages[index]
            return [
                "text": .string(message.text), "isError": .bool(message.classList.contains("error")),
                "classes": .string(Self.cssClasses(message.classList)),
            ]
        }
        let context: TemplateObject = [
            "title": .string(title),
            "csrf": .string(snapshot.csrfToken),
            "notices": .list(snapshot.notices.map { self.messages.text($0, language: language) }),
            "hasNotices": .bool(!snapshot.notices.isEmpty),
            "messages": .list(messages),
            "forms": .list(forms),
            "links": .list(links),
            "images": .list(images),
            "codes": .list(codes),
            "operations": .list(operations),
            "stepType": .string(step.type.rawValue),
            "scripts": .list(Self.scripts(for: operations)),
        ]
        return context.merging(refresh(for: step)) { _, new in new }
    }

    /// The relation of a link meant for another device (Curity sends BankID's QR image with it).
    static let activationRel = "activation"

    /// A QR code of `text` as inline SVG, or nil when it does not fit (a version 10 code at most).
    static func qrCode(for text: String, label: String) -> String? {
        (try? QRCode.encode(text, errorCorrection: .medium))?.svg(label: label)
    }

    private static func isWebURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://")
    }

    /// The scripts of `/assets/` a page's client operations need (each page works without them).
    static func scripts(for operations: [TemplateObject]) -> [String] {
        (operations.contains { $0["isExternalBrowser"] == true } ? ["external-browser.js"] : [])
            + (operations.contains { $0["webAuthnPossible"] == true } ? ["webauthn.js"] : [])
    }

    /// The launch link of an external-browser operation with the gateway's return address appended as `redirect_uri`
    /// (as the HAAPI SDKs append their own), so the browser comes back to this gateway with the resume code.
    func externalBrowserLaunchURL(_ href: String) -> String {
        guard let origin, var components = URLComponents(string: href) else { return href }
        // The upstream's own parameters are kept as it encoded them; the one the gateway adds is encoded here, every
        // character but RFC 3986's unreserved ones (so `&`, `=`, `+`, `#` in it can never split or end the query).
        let kept = (components.percentEncodedQuery ?? "").split(separator: "&").filter {
            $0.split(separator: "=", maxSplits: 1).first.map(String.init)?.removingPercentEncoding != "redirect_uri"
        }
        let value = (origin + Self.externalBrowserReturnPath).addingPercentEncoding(withAllowedCharacters: Self.unreserved) ?? ""
        components.percentEncodedQuery = (kept.map(String.init) + ["redirect_uri=" + value]).joined(separator: "&")
        return components.string ?? href
    }

    /// RFC 3986 §2.3's unreserved characters: the only ones a parameter value the gateway builds keeps unencoded.
    static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// HAAPI message classes (`info`, `warning`, `heading`, `userName`, ...) or link relations (`activation`) as CSS
    /// classes, each prefixed and reduced to letters, digits and hyphens.
    static func cssClasses(_ classList: [String], prefix: String = "message-") -> String {
        classList.map { prefix + String($0.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) }.joined(separator: " ")
    }

    /// A pending polling step checks again at the server's interval: its script asks the status route in the background and
    /// loads the next page only when the step moved on (so a screen reader is not sent back to the top every few
    /// seconds); without a script the page reloads itself through the poll route.
    private func refresh(for step: Representation) -> TemplateObject {
        guard step.stepKind == .polling, step.polling?.status == .pending else { return ["hasRefresh": false] }
        let seconds = PollCadence.seconds(for: step, defaultSeconds: defaultPollSeconds)
        return [
            "hasRefresh": true, "isWaiting": true, "refreshSeconds": "\(seconds)", "refreshURL": "/step/\(snapshot.version)/poll",
            "statusURL": "/step/\(snapshot.version)/status",
        ]
    }

    func text(_ key: MessageKey, _ arguments: [String: String] = [:]) -> String {
        messages.text(key, language: language, arguments: arguments)
    }

    func formContext(action: Action, model: FormModel, address: ActionAddress) -> TemplateObject {
        let fields = model.fields.filter { $0.type != .hidden }.map { fieldContext($0, address: address, actionKind: action.kind.rawValue) }
        // The button says the form's `actionTitle`; the action's `title` is then the form's heading (notes 3.4: samples
        // email-otp-form, action-reset-password, duo-select-device). With only a title, the title is the button.
        let heading = model.actionTitle == nil ? model.title : (model.title ?? action.title)
        let button = action.kind == .poll ? text(.checkNow) : (model.actionTitle ?? action.title ?? text(.continueButton))
        return [
            "action": "/step/\(snapshot.version)/action/\(address)",
            "title": .string(heading ?? ""),
            "hasTitle": .bool(heading != nil && heading != button),
            "button": .string(button),
            "fields": .list(fields),
            "csrf": .string(snapshot.csrfToken),
            "kind": .string(action.kind.rawValue),
        ]
    }

    private func fieldContext(_ field: Field, address: ActionAddress, actionKind: String) -> TemplateObject {
        let id = "f-" + address.segments.joined(separator: "-") + "-" + String(field.name.map { $0.isLetter || $0.isNumber ? $0 : "_" })
        let error = snapshot.fieldErrors[field.name]
        var context: TemplateObject = [
            "id": .string(id),
            "name": .string(PageFieldName.onPage(field.name)),
            "label": .string(field.label ?? field.placeholder ?? field.name),
            "placeholder": .string(field.placeholder ?? ""),
            "required": .bool(field.isRequired && field.readonly != true),
            "readonly": .bool(field.readonly == true),
            "hasError": .bool(error != nil),
            "error": .string(error.map { messages.text($0, language: language) } ?? ""),
            "errorID": .string(id + "-error"),
            "hasPlaceholder": .bool(!(field.placeholder ?? "").isEmpty),
            "hasMinLength": .bool(field.minLength != nil),
            "minLength": .string(field.minLength.map(String.init) ?? ""),
            "hasMaxLength": .bool(field.maxLength != nil),
            "maxLength": .string(field.maxLength.map(String.init) ?? ""),
        ]
        switch field.type {
        case .checkbox:
            context["isCheckbox"] = true
            // After a re-render the person's own choice wins over the step's default.
            context["checked"] = .bool(snapshot.values[field.name].map { !$0.isEmpty } ?? (field.checked == true))
        case .select:
            context["isSelect"] = true
            // A select always sends one of its options; `required` means something (and is valid HTML) only when the
            // first option is an empty placeholder (HTML's "placeholder label option").
            context["required"] = .bool(field.isRequired && field.options.first?.value.isEmpty == true)
            let selected = snapshot.values[field.name]
            context["options"] = .list(
                field.options.map { option -> TemplateObject in
                    [
                        "value": .string(option.value), "label": .string(option.label),
                        "selected": .bool(selected == option.value || (selected == nil && option.selected)),
                    ]
                }
            )
        default:
            context["isInput"] = true
            if field.type == .context {
                // A value the client fills from a client operation's result; a person pastes it when the page cannot.
                context["isContext"] = true
                context["label"] = .string(field.label ?? text(.resumeCodeLabel))
            }
            let (type, autocomplete) = Self.inputType(for: field, actionKind: actionKind)
            context["inputType"] = .string(type)
            context["autocomplete"] = .string(self.autocomplete ? autocomplete : "off")
            context["value"] = .string(field.type == .password ? "" : (snapshot.values[field.name] ?? field.value ?? ""))
        }
        return context
    }

    /// The input type and `autocomplete` hint: `new-password` where a password is being chosen (sign-up, registration,
    /// reset, or a field named for a new or repeated password), `one-time-code` for numeric codes.
    static func inputType(for field: Field, actionKind: String = "") -> (String, String) {
        switch field.type {
        case .password:
            let name = field.name.lowercased()
            let kind = actionKind.lowercased()
            let choosing =
                ["signup", "sign-up", "register", "registration", "create", "reset", "change"].contains { kind.contains($0) }
                || ["new", "confirm", "repeat", "retype"].contains { name.contains($0) }
            return ("password", choosing ? "new-password" : "current-password")
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
