/// A value a template shows: the pages' contexts are built from these, so that a name is looked up in an object
/// (``TemplateObject``) and a value's kind is known without casts. Literals build them directly (`["title": "Sign in", "hasLogo": false]`).
/// Numbers are held as their text (`3` is `.string("3")`). Contexts are data only: there is no case for a function, so
/// Mustache's optional lambdas cannot occur.
enum TemplateValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case list([TemplateValue])
    case object(TemplateObject)
    /// No value (JSON's `null`): shows as nothing and skips a section, but, unlike a missing name, stops the lookup
    /// of its name in outer sections.
    case null

    /// Whether a section over this value is skipped (`false`, `null` and empty lists; any string, even an empty one,
    /// is shown).
    var isFalsey: Bool {
        switch self {
        case .bool(let bool): !bool
        case .list(let list): list.isEmpty
        case .null: true
        case .string, .object: false
        }
    }

    /// A list of objects (the usual shape of a section that repeats).
    static func list(_ objects: [TemplateObject]) -> TemplateValue {
        .list(objects.map(TemplateValue.object))
    }

    /// A list of strings.
    static func list(_ strings: [String]) -> TemplateValue {
        .list(strings.map(TemplateValue.string))
    }
}

extension TemplateValue: ExpressibleByStringInterpolation {
    init(stringLiteral value: String) { self = .string(value) }
}

extension TemplateValue: ExpressibleByBooleanLiteral {
    init(booleanLiteral value: Bool) { self = .bool(value) }
}

extension TemplateValue: ExpressibleByIntegerLiteral {
    init(integerLiteral value: Int) { self = .string(String(value)) }
}

extension TemplateValue: ExpressibleByArrayLiteral {
    init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
}

extension TemplateValue: ExpressibleByDictionaryLiteral {
    init(dictionaryLiteral elements: (String, TemplateValue)...) { self = .object(TemplateObject(literal: elements)) }
}
