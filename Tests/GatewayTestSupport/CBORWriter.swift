/// Encodes the few CBOR items (RFC 8949) a WebAuthn authenticator emits: integers, byte and text strings, maps.
enum CBORWriter {
    /// A CBOR item to encode.
    indirect enum Item {
        case integer(Int)
        case bytes([UInt8])
        case text(String)
        case map([(Item, Item)])
        /// Bytes copied as they are (to build malformed input on purpose).
        case raw([UInt8])
    }

    static func encode(_ item: Item) -> [UInt8] {
        switch item {
        case .integer(let value) where value >= 0: return head(major: 0, UInt64(value))
        case .integer(let value): return head(major: 1, UInt64(-1 - value))
        case .bytes(let bytes): return head(major: 2, UInt64(bytes.count)) + bytes
        case .text(let text): return head(major: 3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .map(let pairs): return head(major: 5, UInt64(pairs.count)) + pairs.flatMap { encode($0.0) + encode($0.1) }
        case .raw(let bytes): return bytes
        }
    }

    private static func head(major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24..<0x100: return [type | 24, UInt8(argument)]
        case 0x100..<0x10000: return [type | 25] + bigEndian(argument, count: 2)
        case 0x10000..<0x1_0000_0000: return [type | 26] + bigEndian(argument, count: 4)
        default: return [type | 27] + bigEndian(argument, count: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
