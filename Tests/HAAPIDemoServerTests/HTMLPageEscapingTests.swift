import Testing

@testable import HAAPIDemoServer

/// The demo's own pages escape what they show scalar by scalar, as the gateway escapes by bytes.
@Suite("The demo pages' escaping")
struct HTMLPageEscapingTests {
    @Test("a quote, bracket or ampersand joined by a combining mark is escaped: a value cannot leave its attribute")
    func combiningMarks() {
        let escaped = HTMLPage.escape("a\"\u{301}<\u{301}>\u{301}&\u{301}'\u{301} onfocus=alert(1)")
        #expect(escaped == "a&quot;\u{301}&lt;\u{301}&gt;\u{301}&amp;\u{301}&#39;\u{301} onfocus=alert(1)")
        let bytes = Array(escaped.utf8)
        for special in ["\"", "<", ">", "&", "'"] {
            let raw = Array(special.utf8) + [0xCC, 0x81]
            #expect(!bytes.indices.contains { bytes[$0...].starts(with: raw) }, "\(special) with a combining mark unescaped")
        }
    }
}
