/// Renders compiled templates against a context into UTF-8 bytes: every `{{name}}` escaped by ``HTMLEscaping``, names
/// looked up from the innermost section outwards (Mustache's context stack).
struct TemplateRenderer {
    /// Partials nest at most this deep (a template that includes itself stops there).
    static let maximumPartialDepth = 16

    private let templates: [String: [TemplateNode]]
    private var stack: [TemplateValue]
    private var partialDepth = 0
    private(set) var output: [UInt8] = []

    init(templates: [String: [TemplateNode]], context: TemplateValue) {
        self.templates = templates
        self.stack = [context]
        output.reserveCapacity(8192)
    }

    mutating func render(_ nodes: [TemplateNode]) {
        for node in nodes {
            switch node {
            case .text(let bytes):
                output.append(contentsOf: bytes)
            case .variable(let name, let escaped):
                switch value(named: name) {
                case .string(let text):
                    if escaped { HTMLEscaping.append(text, to: &output) } else { output.append(contentsOf: text.utf8) }
                case .bool(let bool):
                    output.append(contentsOf: (bool ? "true" : "false").utf8)
                case .list, .object, nil:
                    break
                }
            case .section(let name, let inverted, let children):
                let value = value(named: name)
                if inverted {
                    if value?.isFalsey ?? true { render(children) }
                    continue
                }
                switch value {
                case .list(let items)?:
                    for item in items { render(children, with: item) }
                case .bool(let shown)?:
                    if shown { render(children) }
                case let found?:
                    render(children, with: found)
                case nil:
                    break
                }
            case .partial(let name, let indentation):
                guard let partial = templates[name], partialDepth < Self.maximumPartialDepth else { continue }
                partialDepth += 1
                let start = output.count
                render(partial)
                if !indentation.isEmpty { indent(from: start, by: indentation) }
                partialDepth -= 1
            }
        }
    }

    private mutating func render(_ nodes: [TemplateNode], with value: TemplateValue) {
        stack.append(value)
        render(nodes)
        stack.removeLast()
    }

    private func value(named name: TemplateName) -> TemplateValue? {
        guard let first = name.parts.first else { return stack.last }
        var found: TemplateValue?
        for frame in stack.reversed() {
            if case .object(let object) = frame, let value = object[first] {
                found = value
                break
            }
        }
        for part in name.parts.dropFirst() {
            guard case .object(let object)? = found else { return nil }
            found = object[part]
        }
        return found
    }

    /// Puts `indentation` in front of every line rendered since `start` (a standalone partial's lines).
    private mutating func indent(from start: Int, by indentation: String) {
        guard start < output.count else { return }
        let rendered = output[start...]
        output.removeSubrange(start...)
        var atLineStart = true
        for byte in rendered {
            if atLineStart { output.append(contentsOf: indentation.utf8) }
            output.append(byte)
            atLineStart = byte == UInt8(ascii: "\n")
        }
    }
}
