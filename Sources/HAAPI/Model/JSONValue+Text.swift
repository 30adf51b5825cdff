extension JSONValue {
    /// Compact JSON text of this value, the same for equal values (object members sorted by name), which ``JSONParser``
    /// reads back to an equal value. Never fails: integral numbers below 2^53 are written as integers, other finite
    /// numbers in Swift's shortest round-tripping form, infinities (a number too large for a `Double`, as `1e999` parses)
    /// as `±1e999`, and NaN, which no parsed JSON holds, as `null` (``JSONWriter/anyValue(_:)``).
    var jsonText: String {
        var writer = JSONWriter()
        writer.anyValue(self)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
