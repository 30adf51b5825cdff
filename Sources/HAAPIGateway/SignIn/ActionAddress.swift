import HAAPI

/// Names an action of a step by position, as forms post it: `0` is the first action, `0.2` the third option of the
/// first action's selector, `1.c0` / `1.e0` the first continue / error action of the second action's form or client operation.
struct ActionAddress: Sendable, Hashable, CustomStringConvertible {
    let segments: [String]

    init(_ segments: [String]) {
        self.segments = segments
    }

    /// Parses a path segment such as `0.2` or `1.c0`; nil when malformed or absurdly deep.
    init?(path: String) {
        let parts = path.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard !parts.isEmpty, parts.count <= 8, parts.allSatisfy(Self.isValidSegment) else { return nil }
        guard Int(parts[0]) != nil else { return nil }
        self.segments = parts
    }

    var description: String { segments.joined(separator: ".") }

    func appending(_ segment: String) -> ActionAddress { ActionAddress(segments + [segment]) }

    /// The action this address names in `step`, or nil.
    func resolve(in step: Representation) -> Action? {
        guard let first = Int(segments[0]), step.actions.indices.contains(first) else { return nil }
        var action = step.actions[first]
        for segment in segments.dropFirst() {
            guard let next = Self.child(of: action, segment: segment) else { return nil }
            action = next
        }
        return action
    }

    private static func child(of action: Action, segment: String) -> Action? {
        if let index = Int(segment) {
            guard let options = action.selectorOptions, options.indices.contains(index) else { return nil }
            return options[index]
        }
        guard let kind = segment.first, let index = Int(segment.dropFirst()) else { return nil }
        let list: [Action]
        switch kind {
        case "c": list = action.continueActions
        case "e": list = action.errorActions
        default: return nil
        }
        return list.indices.contains(index) ? list[index] : nil
    }

    private static func isValidSegment(_ segment: String) -> Bool {
        guard !segment.isEmpty, segment.count <= 5 else { return false }
        if Int(segment) != nil { return segment.allSatisfy(\.isASCII) && segment.allSatisfy(\.isNumber) }
        guard let first = segment.first, first == "c" || first == "e" else { return false }
        let rest = segment.dropFirst()
        return !rest.isEmpty && rest.allSatisfy { $0.isASCII && $0.isNumber }
    }
}
