/// Decodes CBOR (RFC 8949) from untrusted bytes: definite lengths only, no tags, no floating point, bounded depth and
/// item counts, unique map keys, valid UTF-8 text. Anything else is refused.
struct CBORDecoder {
    /// Why decoding failed.
    enum Failure: Error, Sendable, Equatable {
        case truncated
        case unsupported(String)
        case tooDeep
        case tooLarge
        case invalidText
        case duplicateKey
        case trailingBytes
    }

    /// How deeply arrays and maps may nest.
    var maximumDepth = 8
    /// How many elements (or key-value pairs) one array or map may have.
    var maximumItems = 256

    private let bytes: [UInt8]
    private(set) var position: Int

    init(_ bytes: [UInt8], from position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Decodes exactly one item that spans all of `bytes`.
    static func decodeWhole(_ bytes: [UInt8]) throws(Failure) -> CBORValue {
        var decoder = CBORDecoder(bytes)
        let value = try decoder.decodeItem()
        guard decoder.position == bytes.count else { throw .trailingBytes }
        return value
    }

    /// Decodes the item at the current position and moves past it.
    mutating func decodeItem() throws(Failure) -> CBORValue {
        try decodeItem(depth: 0)
    }

    private mutating func decodeItem(depth: Int) throws(Failure) -> CBORValue {
        guard depth <= maximumDepth else { throw .tooDeep }
        let initial = try readByte()
        let major = initial >> 5
        let additional = initial & 0x1f
        if major == 7 {
            switch additional {
            case 20: return .bool(false)
            case 21: return .bool(true)
            case 22: return .null
            default: throw .unsupported("simple value or float \(additional)")
            }
        }
        let argument = try readArgument(additional)
        switch major {
        case 0: return .unsigned(argument)
        case 1: return .negative(argument)
        case 2: return .bytes(try readBytes(count: argument))
        case 3:
            guard let text = String(validating: try readBytes(count: argument), as: UTF8.self) else { throw .invalidText }
            return .text(text)
        case 4:
            guard argument <= UInt64(maximumItems) else { throw .tooLarge }
            var elements: [CBORValue] = []
            for _ in 0..<Int(argument) { elements.append(try decodeItem(depth: depth + 1)) }
            return .array(elements)
        case 5:
            guard argument <= UInt64(maximumItems) else { throw .tooLarge }
            var pairs: [(key: CBORValue, value: CBORValue)] = []
            var keys = Set<CBORValue>()
            for _ in 0..<Int(argument) {
                let key = try decodeItem(depth: depth + 1)
                guard keys.insert(key).inserted else { throw .duplicateKey }
                pairs.append((key, try decodeItem(depth: depth + 1)))
            }
            return .map(pairs)
        default:
            throw .unsupported("major type \(major)")
        }
    }

    /// The argument that follows the initial byte; indefinite lengths and reserved values are refused.
    private mutating func readArgument(_ additional: UInt8) throws(Failure) -> UInt64 {
        switch additional {
        case 0..<24: return UInt64(additional)
        case 24: return try readUnsigned(byteCount: 1)
        case 25: return try readUnsigned(byteCount: 2)
        case 26: return try readUnsigned(byteCount: 4)
        case 27: return try readUnsigned(byteCount: 8)
        default: throw .unsupported("indefinite or reserved length \(additional)")
        }
    }

    private mutating func readUnsigned(byteCount: Int) throws(Failure) -> UInt64 {
        var value: UInt64 = 0
        for byte in try readBytes(count: UInt64(byteCount)) { value = value << 8 | UInt64(byte) }
        return value
    }

    private mutating func readByte() throws(Failure) -> UInt8 {
        guard position < bytes.count else { throw .truncated }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func readBytes(count: UInt64) throws(Failure) -> [UInt8] {
        guard count <= UInt64(bytes.count - position) else { throw .truncated }
        let end = position + Int(count)
        defer { position = end }
        return Array(bytes[position..<end])
    }
}
