/// A value a template can show: the page contexts are converted into these once per render, so that a name is looked up
/// in a dictionary instead of being found by dynamic casts.
enum TemplateValue: Sendable, Equatable {
    case string(String)
    case bool(Bool)
    case list([TemplateValue])
    case object([String: TemplateValue])

    /// A context value: strings, booleans, integers, lists and string-keyed dictionaries of them (anything else is shown
    /// as its description).
    init(_ value: Any) {
        switch value {
        case let value as TemplateValue: self = value
        case let string as String: self = .string(string)
        case let bool as Bool: self = .bool(bool)
        case let object as [String: Any]: self = .object(object.mapValues(TemplateValue.init))
        case let list as [[String: Any]]: self = .list(list.map { .object($0.mapValues(TemplateValue.init)) })
        case let list as [String]: self = .list(list.map(TemplateValue.string))
        case let list as [Any]: self = .list(list.map(TemplateValue.init))
        case let integer as Int: self = .string(String(integer))
        default: self = .string(String(describing: value))
        }
    }

    /// Whether a section over this value is skipped (`false` and empty lists; any string, even an empty one, is shown).
    var isFalsey: Bool {
        switch self {
        case .bool(let bool): !bool
        case .list(let list): list.isEmpty
        case .string, .object: false
        }
    }
}
