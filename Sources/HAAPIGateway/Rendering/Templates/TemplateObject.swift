/// The members of a template object (a page's context, a form's, a field's): names and their values in the order they
/// were added, a name found by comparing it with each in turn. A page's objects are built on every request and have a
/// dozen or so short names, which Swift keeps inline (up to 15 bytes): comparing two is comparing two machine words,
/// where a dictionary hashes every name once to build the object and again for every look-up. An object of more than
/// ``indexedCount`` members (the gateway's texts, `t`, made once per language) also keeps its members' positions by
/// name. Literals build it as a dictionary's would (`["title": "Sign in", "hasLogo": false]`); a name twice in one
/// literal is a programming error (checked in debug builds).
struct TemplateObject: Sendable, Equatable, ExpressibleByDictionaryLiteral {
    /// Above this many members an object keeps their positions by name.
    static let indexedCount = 24

    /// The members (name, value), in the order they were added, each name once. A literal's own array becomes it.
    private var members: [(String, TemplateValue)] = []
    /// The members' positions by name, kept once there are more than ``indexedCount``.
    private var positions: [String: Int]?

    /// The members of a dictionary (in its order, which templates never see: a name is looked up, never listed).
    init(_ dictionary: [String: TemplateValue]) {
        members.reserveCapacity(dictionary.count)
        for (name, value) in dictionary { members.append((name, value)) }
        indexIfLarge()
    }

    /// A literal's members (see ``init(literal:)``).
    init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self.init(literal: elements)
    }

    /// The members of a literal, in its order (a name twice is a programming error, checked in debug builds).
    init(literal elements: [(String, TemplateValue)]) {
        assert(Set(elements.map(\.0)).count == elements.count, "a name twice in one template object: \(elements.map(\.0))")
        members = elements
        indexIfLarge()
    }

    /// The value of the member `name`; setting replaces it where it is or adds it at the end, and nil removes it.
    subscript(name: String) -> TemplateValue? {
        get { position(of: name).map { members[$0].1 } }
        set {
            switch (position(of: name), newValue) {
            case (let position?, let value?):
                members[position].1 = value
            case (let position?, nil):
                members.remove(at: position)
                positions = nil
                indexIfLarge()
            case (nil, let value?):
                append(name, value)
            case (nil, nil):
                break
            }
        }
    }

    /// Sets every member of `other` here (replacing those of the same name where they are, adding the rest), the value
    /// `combine` makes of the two where a name is in both.
    mutating func merge(_ other: TemplateObject, uniquingKeysWith combine: (TemplateValue, TemplateValue) throws -> TemplateValue) rethrows {
        for (name, value) in other.members {
            if let position = position(of: name) {
                members[position].1 = try combine(members[position].1, value)
            } else {
                append(name, value)
            }
        }
    }

    /// This object with ``merge(_:uniquingKeysWith:)``'s members of `other`.
    func merging(_ other: TemplateObject, uniquingKeysWith combine: (TemplateValue, TemplateValue) throws -> TemplateValue) rethrows -> TemplateObject
    {
        var merged = self
        try merged.merge(other, uniquingKeysWith: combine)
        return merged
    }

    /// Equal when both have the same names with equal values, in whatever order.
    static func == (lhs: TemplateObject, rhs: TemplateObject) -> Bool {
        lhs.members.count == rhs.members.count && lhs.members.allSatisfy { rhs[$0.0] == $0.1 }
    }

    /// Where the member `name` is: names of another length are passed over without comparing their bytes.
    private func position(of name: String) -> Int? {
        if let positions { return positions[name] }
        let count = name.utf8.count
        return members.firstIndex { $0.0.utf8.count == count && $0.0 == name }
    }

    private mutating func append(_ name: String, _ value: TemplateValue) {
        members.append((name, value))
        if positions != nil { positions?[name] = members.count - 1 } else { indexIfLarge() }
    }

    private mutating func indexIfLarge() {
        guard positions == nil, members.count > Self.indexedCount else { return }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(members.count)
        for (position, member) in members.enumerated() { positions[member.0] = position }
        self.positions = positions
    }
}
