import Hummingbird

extension Request {
    /// The value of the request's first cookie named `name`, read straight from the `Cookie` headers: what
    /// `cookies[name]?.value` answers, without making every cookie of the header a `Cookie` first. Each request reads
    /// the sign-in's cookie, and the page path reads it twice: an ASCII header (every browser's) is read byte by byte,
    /// with nothing allocated but the value (the pairs as `Character`s were 3.4 % of a page, `artifacts/profiles/`).
    func cookieValue(_ name: String) -> String? {
        for field in headers where field.name == .cookie {
            // As Hummingbird reads it: the first cookie of the name decides, and an empty value is no cookie.
            if let value = Self.firstCookie(named: name, in: field.value) { return value.isEmpty ? nil : String(value) }
        }
        return nil
    }

    /// The value of the first pair named `name` in one `Cookie` header; nil when no pair has that name. Pairs are split
    /// at `;`, their leading whitespace dropped, and named by what comes before their first `=`.
    private static func firstCookie(named name: String, in header: String) -> Substring? {
        guard header.utf8.allSatisfy({ $0 < 0x80 }), name.utf8.allSatisfy({ $0 < 0x80 }) else {
            // Beyond ASCII a `Character` can join a `;` to the mark after it, and names compare by canonical equivalence.
            for pair in header.split(separator: ";", omittingEmptySubsequences: false) {
                let pair = pair.drop { $0.isWhitespace }
                if let equals = pair.firstIndex(of: "="), pair[..<equals] == name { return pair[pair.index(after: equals)...] }
            }
            return nil
        }
        // In ASCII each byte is a `Character` (but CR LF, whitespace either way), and the whitespace is 9–13 and 32.
        let bytes = header.utf8
        var pairStart = bytes.startIndex
        while true {
            let pairEnd = bytes[pairStart...].firstIndex(of: UInt8(ascii: ";")) ?? bytes.endIndex
            let nameStart = bytes[pairStart..<pairEnd].firstIndex { !(9...13).contains($0) && $0 != 32 } ?? pairEnd
            if let equals = bytes[nameStart..<pairEnd].firstIndex(of: UInt8(ascii: "=")), bytes[nameStart..<equals].elementsEqual(name.utf8) {
                return header[bytes.index(after: equals)..<pairEnd]
            }
            guard pairEnd < bytes.endIndex else { return nil }
            pairStart = bytes.index(after: pairEnd)
        }
    }
}
