/// Renders compiled templates against a context into UTF-8 bytes: every `{{name}}` escaped by ``HTMLEscaping``, names
/// looked up from the innermost section outwards (Mustache's context stack).
struct TemplateRenderer {
    /// Partials nest at most this deep (a template that includes itself stops there).
    static let maximumPartialDepth = 16

    private let templates: [String: [TemplateNode]]
    private var stack: [TemplateValue]
    private var partialDepth = 0
    /// The indentation of the standalone partials being rendered, put where each of their source lines begins.
    private var indentation: [UInt8] = []
    private(set) var output: [UInt8] = []

    init(templates: [String: [TemplateNode]], context: TemplateValue) {
        self.templates = templates
        self.stack = [context]
        output.reserveCapacity(8192)
    }

    mutating func render(_ nodes: [TemplateNode]) {
        for node in nodes {
            switch node {
            case .text(let bytes, let lineStarts):
                if indentation.isEmpty || lineStarts.isEmpty {
                    output.append(contentsOf: bytes)
                } else {
                    var copied = 0
                    for start in lineStarts {
                        output.append(contentsOf: bytes[copied..<start])
                        output.append(contentsOf: indentation)
                        copied = start
                    }
                    output.append(contentsOf: bytes[copied...])
                }
            case .variable(let name, let escaped):
                switch value(named: name) {
                case .string(let text):
                    if escaped { HTMLEscaping.append(text, to: &output) } else { output.append(contentsOf: text.utf8) }
                case .bool(let bool):
                    output.append(contentsOf: (bool ? "true" : "false").utf8)
                case .list, .object, .null, nil:
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
                case .null?, nil:
                    break
                case let found?:
                    render(children, with: found)
                }
            case .partial(let name, let partialIndentation):
                guard let partial = templates[name], partialDepth < Self.maximumPartialDepth else { continue }
                partialDepth += 1
                indentation.append(contentsOf: partialIndentation.utf8)
                render(partial)
                indentation.removeLast(partialIndentation.utf8.count)
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
}
