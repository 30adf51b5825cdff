import HAAPI

/// The names of read-only fields anywhere in a step's JSON.
enum ReadOnlyFieldNames {
    static func find(in json: JSONValue) -> Set<String> {
        var names: Set<String> = []
        func walk(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if members["readonly"]?.boolValue == true, let name = members["name"]?.stringValue { names.insert(name) }
                members.values.forEach(walk)
            case .array(let elements): elements.forEach(walk)
            default: break
            }
        }
        walk(json)
        return names
    }
}
