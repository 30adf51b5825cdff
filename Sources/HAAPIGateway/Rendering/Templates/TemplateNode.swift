/// One piece of a compiled template.
enum TemplateNode: Sendable {
    /// Text copied to the output as it is. `lineStarts` are the offsets in it where a line of the template's source
    /// begins (ascending; the end of the text when the next line begins with a tag): inside a standalone partial, the
    /// partial's indentation goes there, so that its lines, not the values shown in them, are indented.
    case text([UInt8], lineStarts: [Int])
    /// `{{name}}` (escaped) or `{{{name}}}` / `{{&name}}` (as it is).
    case variable(TemplateName, escaped: Bool)
    /// `{{#name}}…{{/name}}`, or `{{^name}}…{{/name}}` when inverted.
    case section(TemplateName, inverted: Bool, [TemplateNode])
    /// `{{> name}}`, with the whitespace in front of it when it stands on a line of its own (put in front of every line
    /// of the partial).
    case partial(String, indentation: String)
}
