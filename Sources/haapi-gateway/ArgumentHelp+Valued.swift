import ArgumentParser

extension ArgumentHelp {
    /// An option's help whose value is shown as `<valueName>`: the name first, so that the sentence, one literal, ends
    /// the declaration's line.
    static func valued(_ valueName: String, _ abstract: String) -> ArgumentHelp {
        ArgumentHelp(abstract, valueName: valueName)
    }
}
