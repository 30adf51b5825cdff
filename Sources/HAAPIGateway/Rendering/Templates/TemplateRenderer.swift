/// Renders a compiled template (``TemplateSet``) against a context into UTF-8 bytes: every `{{name}}` escaped by
/// ``HTMLEscaping``, names looked up from the innermost section outwards (Mustache's context stack).
struct TemplateRenderer {
    /// Partials nest at most this deep (a template that includes itself stops there).
    static let maximumPartialDepth = 16

    private let set: TemplateSet
    private var stack: [TemplateValue]
    private var partialDepth = 0
    /// The indentation of the standalone partials being rendered, put where each of their source lines begins.
    private var indentation: [UInt8] = []
    private(set) var output: [UInt8] = []

    init(set: TemplateSet, context: TemplateValue) {
        self.set = set
        self.stack = [context]
        output.reserveCapacity(8192)
    }

    /// Renders the set's template number `template`.
    mutating func render(template: Int) {
        run(set.templates[template])
    }

    private mutating func run(_ instructions: Range<Int>) {
        var index = instructions.lowerBound
        while index < instructions.upperBound {
            let instruction = set.instructions[index]
            index += 1
            switch instruction {
            case .text(let bytes, let lineStarts):
                if indentation.isEmpty || lineStarts.isEmpty {
                    output.append(contentsOf: set.text[bytes])
                } else {
                    var copied = bytes.lowerBound
                    for start in set.lineStarts[lineStarts] {
                        output.append(contentsOf: set.text[copied..<bytes.lowerBound + start])
                        output.append(contentsOf: indentation)
                        copied = bytes.lowerBound + start
                    }
                    output.append(contentsOf: set.text[copied..<bytes.upperBound])
                }
            case .variable(let name, let escaped):
                switch value(named: set.names[name]) {
                case .string(let text):
                    if escaped { HTMLEscaping.append(text, to: &output) } else { output.append(contentsOf: text.utf8) }
                case .bool(let bool):
                    output.append(contentsOf: (bool ? "true" : "false").utf8)
                case .list, .object, .null, nil:
                    break
                }
            case .section(let name, let inverted, let end):
                let body = index..<end
                index = end
                let value = value(named: set.names[name])
                if inverted {
                    if value?.isFalsey ?? true { run(body) }
                    continue
                }
                switch value {
                case .list(let items)?:
                    for item in items { run(body, with: item) }
                case .bool(let shown)?:
                    if shown { run(body) }
                case .null?, nil:
                    break
                case let found?:
                    run(body, with: found)
                }
            case .partial(let template, let partialIndentation):
                guard let template, partialDepth < Self.maximumPartialDepth else { continue }
                partialDepth += 1
                indentation.append(contentsOf: set.text[partialIndentation])
                run(set.templates[template])
                indentation.removeLast(partialIndentation.count)
                partialDepth -= 1
            }
        }
    }

    private mutating func run(_ instructions: Range<Int>, with value: TemplateValue) {
        stack.append(value)
        run(instructions)
        stack.removeLast()
    }

    private func value(named name: TemplateName) -> TemplateValue? {
        guard let head = name.head else { return stack.last }
        var found: TemplateValue?
        for frame in stack.reversed() {
            if case .object(let object) = frame, let value = object[head] {
                found = value
                break
            }
        }
        for part in name.tail {
            guard case .object(let object)? = found else { return nil }
            found = object[part]
        }
        return found
    }
}
