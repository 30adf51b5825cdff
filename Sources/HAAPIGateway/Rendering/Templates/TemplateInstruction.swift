/// One step of a compiled template (``TemplateSet``): plain numbers that point into the set's tables, so that running
/// a template copies no reference and looks nothing up by its name.
enum TemplateInstruction: Sendable {
    /// Copies `bytes` of the set's text; `lineStarts` are the entries of the set's line starts that belong to this text
    /// (offsets from its start, where a standalone partial's indentation goes: see ``TemplateNode/text(_:lineStarts:)``).
    case text(bytes: Range<Int>, lineStarts: Range<Int>)
    /// Shows the value of the set's name number `name`, escaped or as it is.
    case variable(name: Int, escaped: Bool)
    /// A section over the set's name number `name`: its content is the instructions that follow, up to `end`.
    case section(name: Int, inverted: Bool, end: Int)
    /// Includes template number `template` (nil: the set has no template of that name, which shows nothing), with
    /// `indentation`, bytes of the set's text, in front of each of its lines.
    case partial(template: Int?, indentation: Range<Int>)
}
