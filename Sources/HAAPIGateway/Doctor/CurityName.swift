/// One name of Curity's that `doctor` prints or the Curity documents of this project write, with the Curity page or file
/// that states it: ``CurityNames`` holds every one.
struct CurityName: Sendable, Hashable, CustomStringConvertible {
    /// The name as Curity writes it: a path (relative to where ``CuritySetting`` puts it), an element, a value, a label,
    /// an error code or a problem type URI.
    let name: String
    /// What it names.
    let kind: CurityNameKind
    /// The Curity page or file that states it (an address, or a repository and path).
    let source: String
    /// What the source leaves open, when it does (said wherever the name is printed or written).
    let caveat: String?

    init(_ name: String, _ kind: CurityNameKind, source: String, caveat: String? = nil) {
        self.name = name
        self.kind = kind
        self.source = source
        self.caveat = caveat
    }

    var description: String { name }

    /// The path's elements, `{…}` keys and `<…>` placeholders left out: what a path written in the documents is checked
    /// against.
    var segments: [String] {
        guard [.settingPath, .settingValue].contains(kind) else { return [] }
        return Self.segments(of: name)
    }

    /// The elements of a configuration path as written (`profiles/profile{token-service}/settings` gives `profiles`,
    /// `profile`, `settings`).
    static func segments(of path: String) -> [String] {
        path.split(separator: "/").compactMap { part -> String? in
            var element = String(part)
            if let brace = element.firstIndex(of: "{") { element = String(element[..<brace]) }
            return element.isEmpty || element.hasPrefix("<") ? nil : element
        }
    }
}
