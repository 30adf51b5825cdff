/// Compiled templates, ready to render: every template of a set flattened into one list of instructions, their text in
/// one buffer and their names in one table, each partial resolved to the template it names once, when the set is made.
/// A render looks up no template by its name and copies no part of a template (``TemplateRenderer``).
struct TemplateSet: Sendable {
    /// The instructions of every template, one template after the other.
    private(set) var instructions: [TemplateInstruction] = []
    /// Each template's instructions in ``instructions``, by the template's number.
    private(set) var templates: [Range<Int>] = []
    /// The text of every template, and the indentation of their standalone partials.
    private(set) var text: [UInt8] = []
    /// Where lines begin in the texts (offsets from each text's start).
    private(set) var lineStarts: [Int] = []
    /// Every variable and section name, each once.
    private(set) var names: [TemplateName] = []
    /// The templates' numbers by name.
    private let numbers: [String: Int]
    /// The names' numbers in ``names``, by their text.
    private var nameNumbers: [String: Int] = [:]

    /// Compiles templates (``TemplateParser``'s), their partials resolved among them.
    init(_ parsed: [String: [TemplateNode]]) {
        let ordered = parsed.keys.sorted()
        numbers = Dictionary(uniqueKeysWithValues: ordered.enumerated().map { ($1, $0) })
        for name in ordered { templates.append(compile(parsed[name] ?? [])) }
    }

    /// Renders the template named `name` against `context`; nil when the set has none of that name.
    func render(_ name: String, context: TemplateValue) -> [UInt8]? {
        numbers[name].map { render(template: $0, context: context) }
    }

    /// Renders `nodes`, a template outside the set whose partials are the set's templates (the Mustache specification's
    /// cases and the engine's tests render a template beside its partials so).
    func render(_ nodes: [TemplateNode], context: TemplateValue) -> [UInt8] {
        var set = self
        set.templates.append(set.compile(nodes))
        return set.render(template: set.templates.count - 1, context: context)
    }

    private func render(template: Int, context: TemplateValue) -> [UInt8] {
        var renderer = TemplateRenderer(set: self, context: context)
        renderer.render(template: template)
        return renderer.output
    }

    private mutating func compile(_ nodes: [TemplateNode]) -> Range<Int> {
        let start = instructions.count
        for node in nodes {
            switch node {
            case .text(let bytes, let starts):
                instructions.append(.text(bytes: append(bytes), lineStarts: lineStarts.count..<lineStarts.count + starts.count))
                lineStarts += starts
            case .variable(let name, let escaped):
                instructions.append(.variable(name: number(of: name), escaped: escaped))
            case .section(let name, let inverted, let children):
                let section = instructions.count
                instructions.append(.section(name: number(of: name), inverted: inverted, end: section + 1))
                let end = compile(children).upperBound
                instructions[section] = .section(name: number(of: name), inverted: inverted, end: end)
            case .partial(let name, let indentation):
                instructions.append(.partial(template: numbers[name], indentation: append(Array(indentation.utf8))))
            }
        }
        return start..<instructions.count
    }

    private mutating func append(_ bytes: [UInt8]) -> Range<Int> {
        text += bytes
        return text.count - bytes.count..<text.count
    }

    private mutating func number(of name: TemplateName) -> Int {
        if let number = nameNumbers[name.description] { return number }
        names.append(name)
        nameNumbers[name.description] = names.count - 1
        return names.count - 1
    }
}
