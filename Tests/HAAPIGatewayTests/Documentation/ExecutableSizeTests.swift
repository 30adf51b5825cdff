import Foundation
import Testing

@testable import GatewayTestSupport

/// The executable only parses (issue #56): `Sources/haapi-gateway` holds option declarations, command definitions and
/// wiring, at most 1,000 lines in all and no file over 150; what a command decides lives in a library, tested there.
@Suite("The executable target only parses")
struct ExecutableSizeTests {
    /// The most lines the executable target may have in all.
    static let totalLimit = 1_000
    /// The most lines one file of it may have.
    static let fileLimit = 150

    /// Why `files` (path and line count) are over the limits: the total when it is over `total`, and each file over
    /// `perFile`, by path; empty when none is.
    static func offenders(_ files: [(path: String, lines: Int)], total: Int, perFile: Int) -> [String] {
        let sum = files.map(\.lines).reduce(0, +)
        let long = files.filter { $0.lines > perFile }.sorted { $0.path < $1.path }.map { "\($0.path): \($0.lines) lines (at most \(perFile))" }
        return (sum > total ? ["\(sum) lines in all (at most \(total))"] : []) + long
    }

    /// The lines of `text` as an editor counts them: the last line need not end with a line break.
    static func lineCount(_ text: String) -> Int {
        let breaks = text.reduce(0) { $1 == "\n" ? $0 + 1 : $0 }
        return text.isEmpty || text.hasSuffix("\n") ? breaks : breaks + 1
    }

    @Test("Sources/haapi-gateway is at most 1,000 lines, and no file of it over 150")
    func executableIsSmall() throws {
        let root = Repository.root.path + "/"
        let files = try Repository.swiftSources(under: "Sources/haapi-gateway").map {
            (String($0.path.dropFirst(root.count)), Self.lineCount($0.text))
        }
        #expect(files.count > 10, "Sources/haapi-gateway was read: \(files.count) files")
        let offenders = Self.offenders(files, total: Self.totalLimit, perFile: Self.fileLimit)
        #expect(offenders.isEmpty, "the executable target is too big: \(offenders.joined(separator: "; "))")
    }

    @Test("the count finds a total over the limit and a long file, and counts lines as an editor does")
    func theCountCanFail() {
        #expect(Self.lineCount("a\nb\n") == 2)
        #expect(Self.lineCount("a\nb") == 2)
        #expect(Self.lineCount("") == 0)
        #expect(Self.offenders([("A.swift", 150), ("B.swift", 150)], total: 300, perFile: 150).isEmpty)
        let over = Self.offenders([("B.swift", 150), ("A.swift", 151)], total: 300, perFile: 150)
        #expect(over == ["301 lines in all (at most 300)", "A.swift: 151 lines (at most 150)"])
    }
}
