extension JSONValue: ExpressibleByStringLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// A string literal.
    /// - Parameter value: The string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// A boolean literal.
    /// - Parameter value: The boolean.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer literal.
    /// - Parameter value: The integer.
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    /// A floating-point literal.
    /// - Parameter value: The number.
    public init(floatLiteral value: Double) { self = .number(value) }
    /// An array literal.
    /// - Parameter elements: The elements.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// A dictionary literal.
    /// - Parameter elements: The members.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { $1 }))
    }
}
