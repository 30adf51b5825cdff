import Foundation
import Logging
import Synchronization
import Testing

@testable import HAAPIGateway

/// Issue #39 item 4: a value from outside cannot forge a log line. The text format writes every control character as a
/// visible escape, so one event is one line; an untrusted value is also bounded at the point it is logged; the JSON
/// format stays one JSON object per line.
@Suite("Log lines cannot be forged: control characters escaped, untrusted values bounded")
struct ForgedLogLineTests {
    /// Lines written to it, in order.
    private final class Lines: Sendable {
        private let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
        func write(_ string: String) { lines.withLock { $0.append(string) } }
    }

    /// A forged event after a line feed, as a query parameter `%0acritical%20…` decodes.
    private static let forged = "x\ncritical haapi-gateway: admin signed in\r\u{1B}[31m\u{0}\u{7F}\u{85}\u{2028}\u{202E}end"

    @Test("every control character is written as a visible escape; printable text, letters and a backslash are kept")
    func controlCharactersAreEscaped() {
        #expect(
            LogText.escapingControlCharacters(Self.forged)
                == #"x\ncritical haapi-gateway: admin signed in\r\u{1B}[31m\u{0}\u{7F}\u{85}\u{2028}\u{202E}end"#
        )
        #expect(LogText.escapingControlCharacters("tab\there, bell\u{07}") == #"tab\there, bell\u{7}"#)
        for kept in ["/step/3/action/0", "Åsa signs in: ✓ 🔑", #"a\nb (a backslash and an n)"#, ""] {
            #expect(LogText.escapingControlCharacters(kept) == kept)
        }
        for scalar in (0..<0x20).compactMap(Unicode.Scalar.init) + (0x7F...0x9F).compactMap(Unicode.Scalar.init) {
            let escaped = LogText.escapingControlCharacters("a\(scalar)b")
            #expect(!escaped.unicodeScalars.contains(scalar), "U+\(String(scalar.value, radix: 16)) kept")
            #expect(escaped.hasPrefix("a\\") && escaped.hasSuffix("b"))
        }
    }

    @Test("an untrusted value is escaped and cut at 200 scalars with an ellipsis, never inside an escape")
    func untrustedValuesAreBounded() {
        #expect(LogText.untrusted("e\nFORGED") == #"e\nFORGED"#)
        let long = String(repeating: "a", count: 5000)
        let bounded = LogText.untrusted(long)
        #expect(bounded == String(repeating: "a", count: 200) + "…")
        #expect(LogText.untrusted(String(repeating: "b", count: 200)) == String(repeating: "b", count: 200), "200 is kept whole")
        // 198 letters, then an escape of six scalars that does not fit: cut before it, not inside it.
        let escapeAtTheEnd = LogText.untrusted(String(repeating: "c", count: 198) + "\u{1B}zz")
        #expect(escapeAtTheEnd == String(repeating: "c", count: 198) + "…")
        #expect(Logger.MetadataValue.untrusted(long).description.unicodeScalars.count == 201)
    }

    @Test("text format: a forged line feed, carriage return, ESC, NUL or C1 character in the message or any metadata stays in one line")
    func textLinesStayOneLine() throws {
        let lines = Lines()
        var logger = Logger(label: "haapi-gateway") { TextLogHandler(label: $0, timestamps: LogTimestamps(), write: lines.write) }
        logger[metadataKey: "handler"] = "\(Self.forged)"
        logger.notice(
            "start link refused \(Self.forged)",
            metadata: ["reason": "\(Self.forged)", "list": ["\(Self.forged)"], "\(Self.forged)": "key"]
        )
        logger.warning("token endpoint refused the code", metadata: ["error": .untrusted("e\nFORGED")])
        #expect(lines.all.count == 2)
        for line in lines.all {
            #expect(line.hasSuffix("\n"))
            #expect(line.dropLast().unicodeScalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }, "\(line)")
        }
        let first = try #require(lines.all.first)
        #expect(first.contains(#"reason=x\ncritical haapi-gateway: admin signed in\r\u{1B}[31m\u{0}"#))
        #expect(first.contains(#"handler=x\ncritical"#))
        #expect(
            first.hasSuffix(
                #"[HAAPIGatewayTests] start link refused x\ncritical haapi-gateway: admin signed in\r\u{1B}[31m\u{0}\u{7F}\u{85}\u{2028}\u{202E}end"#
                    + "\n"
            )
        )
        #expect(lines.all.last?.contains(#"error=e\nFORGED"#) == true)
    }

    @Test("JSON format: the same events are one JSON object per line, the values as sent")
    func jsonLinesStayJSON() throws {
        let lines = Lines()
        let logger = Logger(label: "haapi-gateway") { JSONLogHandler(label: $0, timestamps: LogTimestamps(), write: lines.write) }
        logger.notice("start link refused \(Self.forged)", metadata: ["reason": "\(Self.forged)", "error": .untrusted("e\nFORGED")])
        let line = try #require(lines.all.first)
        #expect(lines.all.count == 1 && !line.contains("\n") && !line.contains("\r"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["reason"] as? String == Self.forged)
        #expect(object["error"] as? String == #"e\nFORGED"#)
        #expect(object["message"] as? String == "start link refused \(Self.forged)")
    }
}
