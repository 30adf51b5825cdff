/// A decoded CBOR data item (RFC 8949), limited to what WebAuthn attestation objects, COSE keys and authenticator
/// extensions use: integers, byte and text strings, arrays, maps, booleans and null.
enum CBORValue: Sendable, Hashable {
    /// Major type 0.
    case unsigned(UInt64)
    /// Major type 1: the value is `-1 - n`, kept as `n` so that no value overflows.
    case negative(UInt64)
    /// Major type 2.
    case bytes([UInt8])
    /// Major type 3.
    case text(String)
    /// Major type 4.
    case array([CBORValue])
    /// Major type 5, in the order of the encoding (keys are unique).
    case map([(key: CBORValue, value: CBORValue)])
    /// Simple values 20 and 21.
    case bool(Bool)
    /// Simple value 22.
    case null

    static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let a), .unsigned(let b)), (.negative(let a), .negative(let b)): return a == b
        case (.bytes(let a), .bytes(let b)): return a == b
        case (.text(let a), .text(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.map(let a), .map(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.bool(let a), .bool(let b)): return a == b
        case (.null, .null): return true
        default: return false
        }
    }

    func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let value):
            hasher.combine(0)
            hasher.combine(value)
        case .negative(let value):
            hasher.combine(1)
            hasher.combine(value)
        case .bytes(let value):
            hasher.combine(2)
            hasher.combine(value)
        case .text(let value):
            hasher.combine(3)
            hasher.combine(value)
        case .array(let value):
            hasher.combine(4)
            hasher.combine(value)
        case .map(let pairs):
            hasher.combine(5)
            for pair in pairs {
                hasher.combine(pair.key)
                hasher.combine(pair.value)
            }
        case .bool(let value):
            hasher.combine(6)
            hasher.combine(value)
        case .null: hasher.combine(7)
        }
    }

    /// An integer key or value as a Swift `Int`, when it fits.
    var integerValue: Int? {
        switch self {
        case .unsigned(let value): return value <= UInt64(Int.max) ? Int(value) : nil
        case .negative(let value): return value < UInt64(Int.max) ? -1 - Int(value) : nil
        default: return nil
        }
    }

    var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { return value }
        return nil
    }

    var textValue: String? {
        if case .text(let value) = self { return value }
        return nil
    }

    /// The value of a map member by key; nil for other values or an absent key.
    subscript(key: CBORValue) -> CBORValue? {
        guard case .map(let pairs) = self else { return nil }
        return pairs.first { $0.key == key }?.value
    }

    subscript(text key: String) -> CBORValue? { self[.text(key)] }

    subscript(integer key: Int) -> CBORValue? { self[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))] }

    /// Whether this is a map (possibly empty).
    var isMap: Bool {
        if case .map = self { return true }
        return false
    }
}
