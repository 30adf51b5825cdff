import HAAPIGateway
import Testing

@Suite("Urlencoded form bodies")
struct FormBodyTests {
    @Test("plus as space, percent escapes of ASCII and UTF-8, either case of hex digits")
    func decodesEscapes() {
        let form = FormBody(parsing: "userName=J%C3%B6rg+Smith&password=a%2Bb%26c%3dd&note=%e2%9c%93")
        #expect(form.values == ["userName": "Jörg Smith", "password": "a+b&c=d", "note": "✓"])
    }

    @Test("the first value of a repeated name wins; a name without = is empty; empty pairs are skipped")
    func repeatedAndBareNames() {
        let form = FormBody(parsing: "a=1&&a=2&flag&=empty&b=")
        #expect(form.values == ["a": "1", "flag": "", "": "empty", "b": ""])
    }

    @Test("a malformed escape in a name drops the pair, in a value reads as empty", arguments: ["%", "%4", "%zz", "%G1", "a%2", "%C3"])
    func malformedEscapes(escape: String) {
        let form = FormBody(parsing: "\(escape)=x&value=\(escape)&kept=yes")
        #expect(form.values == ["value": "", "kept": "yes"])
    }

    @Test("escapes that decode to bytes that are not UTF-8 are malformed; repaired text (U+FFFD) stays as it is")
    func invalidUTF8() {
        #expect(FormBody(parsing: "a=%FF%FE&b=%C3%28").values == ["a": "", "b": ""])
        #expect(FormBody(parsing: "a=\u{FFFD}").values == ["a": "\u{FFFD}"])
    }

    @Test("an equals sign in a value belongs to the value")
    func equalsInValue() {
        #expect(FormBody(parsing: "token=abc==&x=a=b").values == ["token": "abc==", "x": "a=b"])
    }
}
