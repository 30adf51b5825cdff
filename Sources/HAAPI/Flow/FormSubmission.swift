import Foundation

/// The HTTP request a form submission becomes: hidden fields merged (never overridable), undeclared names
/// refused, GET as query string, POST urlencoded or JSON per the form's `type`, href checked by the origin guard.
struct FormSubmission {
    let method: String
    let url: URL
    let body: Data?
    let contentType: String?
    /// Caller values dropped because the form fixes them (hidden fields, read-only checkboxes).
    let ignoredNames: [String]

    init(form: FormModel, values: [String: JSONValue], originGuard: OriginGuard) throws(HAAPIError) {
        let declared = Set(form.fields.map(\.name))
        let undeclared = values.keys.filter { !declared.contains($0) }.sorted()
        guard undeclared.isEmpty else {
            throw HAAPIError(
                .invalidParameters,
                "the form does not declare \(undeclared.count) parameter(s)",
                problems: undeclared.map { "undeclared parameter '\(HAAPIFlow.safeToken($0))'" }
            )
        }
        let target = try originGuard.resolve(form.href)
        var pairs: [(String, JSONValue)] = []
        var ignored: [String] = []
        for field in form.fields {
            switch field.type {
            case .hidden:
                if values[field.name] != nil { ignored.append(field.name) }
                pairs.append((field.name, .string(field.value ?? "")))
            case .checkbox where field.readonly == true:
                // A read-only box keeps the step's state, checked or not, whatever the caller sends (a consent the
                // server fixed).
                if values[field.name] != nil { ignored.append(field.name) }
                if field.checked == true { pairs.append((field.name, .string(field.value ?? "on"))) }
            default:
                if let value = values[field.name] {
                    pairs.append((field.name, value))
                } else if let fallback = Self.defaultValue(of: field) {
                    pairs.append((field.name, .string(fallback)))
                }
            }
        }
        self.ignoredNames = ignored
        let method = form.method.isEmpty ? "GET" : form.method
        self.method = method
        if method == "GET" || method == "HEAD" {
            self.url = try HAAPIFlow.appendingQuery(pairs.map { ($0.0, Self.text($0.1)) }, to: target)
            self.body = nil
            self.contentType = nil
        } else if form.isJSON {
            self.url = target
            var object: [String: JSONValue] = [:]
            for (name, value) in pairs { object[name] = value }
            do {
                self.body = try JSONValue.object(object).encodedData()
            } catch {
                throw HAAPIError(.invalidParameters, "the form values cannot be encoded as JSON")
            }
            self.contentType = form.type ?? "application/json"
        } else {
            self.url = target
            self.body = Data(FormURLEncoding.encode(pairs.map { ($0.0, Self.text($0.1)) }).utf8)
            self.contentType = "application/x-www-form-urlencoded"
        }
    }

    /// The value HTML would submit without user input: text/username defaults and the selected option.
    static func defaultValue(of field: Field) -> String? {
        switch field.type {
        case .text, .username: return field.value
        case .select: return field.options.first(where: \.selected)?.value ?? field.value
        default: return nil
        }
    }

    /// A value as form text: scalars as is, objects and arrays as compact JSON.
    static func text(_ value: JSONValue) -> String {
        if let scalar = value.scalarText { return scalar }
        if value == .null { return "" }
        return (try? value.encodedData()).flatMap { String(data: $0, encoding: .utf8) } ?? ""
    }
}
