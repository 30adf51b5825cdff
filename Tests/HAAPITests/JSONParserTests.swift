import Foundation
import Testing

@testable import HAAPI

@Suite struct JSONParserTests {
    static func parse(_ text: String) throws -> JSONValue {
        try JSONParser.parse(Data(text.utf8))
    }

    @Test func everySampleParsesToWhatFoundationsJSONDecoderReads() throws {
        for path in try Fixture.allSamplePaths() {
            let data = try Fixture.data(path)
            #expect(try JSONParser.parse(data) == JSONDecoder().decode(JSONValue.self, from: data), "\(path)")
        }
    }

    @Test func scalarsEscapesAndSurrogatePairs() throws {
        let value = try Self.parse(#" {"a":[true,false,null,-1.5e2,0,12],"s":"q\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00","e":{}} "#)
        #expect(value["a"] == .array([.bool(true), .bool(false), .null, .number(-150), .number(0), .number(12)]))
        #expect(value["s"] == .string("q\"\\/\u{8}\u{c}\n\r\té😀"))
        #expect(value["e"] == .object([:]))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", "-", "tru", "\"unterminated", "\"bad \\x escape\"", "\"\\ud800\"", "{\"a\" 1}",
        "[1] 2", "\"tab\tinside\"", "{'a':1}", "NaN",
    ])
    func invalidTextIsRejected(text: String) {
        #expect(throws: JSONParser.SyntaxError.self) { try Self.parse(text) }
    }

    @Test func deepNestingIsRejectedWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: JSONParser.SyntaxError.self) { try Self.parse(deep) }
        let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: Never.self) { try Self.parse(fine) }
    }
}
