/// The short code a person types on the verification page (RFC 8628 §6.1): eight letters of a 20-letter alphabet
/// without vowels (no words can form) and without look-alikes, shown as `WDJB-MJHT`; 20⁸ ≈ 2³⁴ codes, which with the
/// wrong-code bounds (``UserCodeAttemptLimiter``) makes guessing one infeasible.
package enum UserCode {
    /// RFC 8628 §6.1's example alphabet: consonants only, so a code can be typed case-insensitively and read aloud.
    static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
    /// Letters per code.
    static let length = 8

    /// A new random code, normalized (eight letters, no separator).
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &generator)] })
    }

    /// The code as shown and put in links: `WDJB-MJHT`.
    static func display(_ code: String) -> String {
        "\(code.prefix(4))-\(code.dropFirst(4))"
    }

    /// The normalized code a person typed: letters upper-cased, dashes and spaces ignored (RFC 8628 §6.1); nil when what is
    /// left is not eight letters of the alphabet.
    static func normalize(_ typed: String) -> String? {
        guard typed.count <= 32 else { return nil }
        let letters = typed.uppercased().filter { $0 != "-" && $0 != " " }
        guard letters.count == length, letters.allSatisfy(alphabet.contains) else { return nil }
        return letters
    }
}
