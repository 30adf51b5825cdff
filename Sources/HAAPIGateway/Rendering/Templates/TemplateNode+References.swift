extension [TemplateNode] {
    /// Whether these nodes, or a partial they include (followed once each), use a name whose first part is `root`: a
    /// page builds the costly parts of its context only for templates that show them.
    func references(_ root: String, templates: [String: [TemplateNode]]) -> Bool {
        var visited: Set<String> = []
        func walk(_ nodes: [TemplateNode]) -> Bool {
            nodes.contains { node in
                switch node {
                case .text: false
                case .variable(let name, _): name.head == root
                case .section(let name, _, let children): name.head == root || walk(children)
                case .partial(let partial, _):
                    visited.insert(partial).inserted && walk(templates[partial] ?? [])
                }
            }
        }
        return walk(self)
    }
}
