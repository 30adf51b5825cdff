/// One piece of a compiled template.
enum TemplateNode: Sendable {
    /// Text copied to the output as it is.
    case text([UInt8])
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (as it is).
    case variable(TemplateName, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(TemplateName, inverted: Bool, [TemplateNode])
    /// `{{> name}}`, with the whitespace in front of it when it stands on a line of its own (put in front of every line).
    case partial(String, indentation: String)
}
