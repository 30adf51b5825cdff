import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// The QR encoder checked module by module against an independent implementation (Python's `qrcode` package, installed
/// by `.ci/run`), for every mask, both error correction levels and versions 1 to 10.
@Suite("QR code encoder")
struct QRCodeTests {
    /// The modules Python's `qrcode` draws for `text` at `version`, for both levels and every mask: one process per text.
    /// Keys are "L0" … "M7"; values are rows of "1" (dark) and "0".
    private static func reference(_ text: String, versions: [QRErrorCorrection: Int]) throws -> [String: [String]] {
        let requests = versions.map { "(\"\($0.key == .low ? "L" : "M")\", \($0.value))" }.joined(separator: ", ")
        let script = """
            import sys, json, qrcode, qrcode.util
            data = sys.stdin.buffer.read()
            levels = {"L": qrcode.constants.ERROR_CORRECT_L, "M": qrcode.constants.ERROR_CORRECT_M}
            result = {}
            for level, version in [\(requests)]:
                for mask in range(8):
                    qr = qrcode.QRCode(version=version, error_correction=levels[level], border=0, mask_pattern=mask)
                    qr.add_data(qrcode.util.QRData(data, mode=qrcode.util.MODE_8BIT_BYTE), optimize=0)
                    qr.make(fit=False)
                    result[level + str(mask)] = ["".join("1" if cell else "0" for cell in row) for row in qr.get_matrix()]
            print(json.dumps(result))
            """
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        let process = try SpawnedProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", "-c", script],
            environment: ProcessInfo.processInfo.environment,
            standardInput: input,
            standardOutput: output,
            standardError: errors
        )
        input.fileHandleForWriting.write(Data(text.utf8))
        try input.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()  // off the pool: matchesReference runs this on a dispatch queue
        let problem = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)  // off the pool: as above
        let status = process.waitUntilExit()  // off the pool: as above
        guard status == 0, let matrices = try JSONSerialization.jsonObject(with: data) as? [String: [String]] else {
            Issue.record("python3 with the qrcode package is needed (python3 -m pip install qrcode): \(problem)")
            return [:]
        }
        return matrices
    }

    private static func rows(_ code: QRCode) -> [String] {
        code.modules.map { row in String(row.map { $0 ? "1" : "0" }) }
    }

    /// Texts that land in every version from 1 to 10 at level L.
    static let texts: [String] = [
        "haapi", "https://gw.example/pair/x",
        "http://192.168.1.20:8080/pair/0123456789abcdefghijABCDEFGHIJ-_0123456789a",
        String(repeating: "a", count: 100), String(repeating: "b", count: 130), String(repeating: "c", count: 150),
        String(repeating: "d", count: 190), String(repeating: "e", count: 228), String(repeating: "f", count: 270),
    ]

    @Test(
        "every mask and level matches the reference encoder module for module",
        .enabled(if: TestTools.qrReferenceAvailable, "needs Python's qrcode (.ci/run installs it)"),
        .startsPrograms(),
        arguments: texts
    )
    func matchesReference(_ text: String) async throws {
        var versions: [QRErrorCorrection: Int] = [:]
        for errorCorrection in QRErrorCorrection.allCases {
            if let code = try? QRCode.encode(text, errorCorrection: errorCorrection) {
                versions[errorCorrection] = code.version
            } else {
                #expect(errorCorrection == .medium, "level L holds up to 271 bytes")
            }
        }
        let wanted = versions
        // Python runs on a dispatch queue, not on the tests' cooperative pool: on a 2-core machine that pool has two
        // threads, and a blocking wait there starves every test running beside it.
        let reference = try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(with: Result { try Self.reference(text, versions: wanted) }) }
        }
        for (errorCorrection, version) in versions {
            for mask in 0..<8 {
                let code = try QRCode.encode(text, errorCorrection: errorCorrection, mask: mask)
                #expect(code.version == version)
                let key = (errorCorrection == .low ? "L" : "M") + String(mask)
                #expect(Self.rows(code) == reference[key], "\(key)")
            }
        }
    }

    /// The penalty as the standard words it (each row and column copied, each 11-module window compared as an array):
    /// the encoder's one-pass version must score every masked matrix the same.
    private static func referencePenalty(_ matrix: QRMatrix) -> Int {
        let modules = matrix.modules, size = matrix.size
        var score = 0
        let columns = (0..<size).map { x in (0..<size).map { modules[$0][x] } }
        let finderLike = [true, false, true, true, true, false, true], quiet = [Bool](repeating: false, count: 4)
        for line in modules + columns {
            var runColor = line[0], runLength = 1
            for module in line.dropFirst() {
                if module == runColor {
                    runLength += 1
                } else {
                    if runLength >= 5 { score += runLength - 2 }
                    runColor = module
                    runLength = 1
                }
            }
            if runLength >= 5 { score += runLength - 2 }
            for start in 0...(size - 11) where [finderLike + quiet, quiet + finderLike].contains(Array(line[start..<start + 11])) { score += 40 }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) where Set([modules[y][x], modules[y][x + 1], modules[y + 1][x], modules[y + 1][x + 1]]).count == 1 { score += 3 }
        }
        let dark = modules.joined().filter { $0 }.count
        return score + abs(dark * 100 / (size * size) - 50) / 5 * 10
    }

    @Test("the mask penalty scores every masked matrix as the standard's rules do, at both levels", arguments: texts)
    func penaltyMatchesTheRules(_ text: String) throws {
        for errorCorrection in QRErrorCorrection.allCases {
            guard let code = try? QRCode.encode(text, errorCorrection: errorCorrection) else { continue }
            var matrix = QRMatrix(version: code.version)
            matrix.drawFunctionPatterns()
            matrix.drawCodewords(QRCodewords.make(bytes: Array(text.utf8), version: code.version, errorCorrection: errorCorrection))
            let penalties = (0..<8).map { matrix.masked($0, errorCorrection: errorCorrection).penalty }
            #expect(penalties == (0..<8).map { Self.referencePenalty(matrix.masked($0, errorCorrection: errorCorrection)) })
            #expect(code.mask == penalties.indices.min { penalties[$0] < penalties[$1] })
        }
    }

    @Test("the smallest version that fits is chosen; too long a text is an error")
    func versions() throws {
        #expect(try QRCode.encode(String(repeating: "x", count: 17)).version == 1)
        #expect(try QRCode.encode(String(repeating: "x", count: 18)).version == 2)
        #expect(try QRCode.encode(String(repeating: "x", count: 271)).version == 10)
        #expect(try QRCode.encode(String(repeating: "x", count: 271)).size == 57)
        #expect(throws: QRCode.TooLong.self) { try QRCode.encode(String(repeating: "x", count: 272)) }
    }

    @Test("the SVG draws exactly the dark modules inside a quiet zone, with an escaped accessible name and no style")
    func svgDrawsTheModules() throws {
        let code = try QRCode.encode("https://gw.example/pair/x")
        let svg = code.svg(label: "Scan <this> & \"that\"")
        let width = code.size + 8
        #expect(
            svg.hasPrefix(
                #"<svg xmlns="http://www.w3.org/2000/svg" class="qr-code" viewBox="0 0 \#(width) \#(width)" role="img" aria-label="Scan &lt;this&gt; &amp; &quot;that&quot;""#
            )
        )
        #expect(!svg.contains("style") && !svg.contains("<script"))
        // A quote joined by a combining mark is one character: escaped byte by byte, it cannot end the attribute.
        let marked = code.svg(label: "a\"\u{301} onload=alert(1) b")
        #expect(marked.contains("aria-label=\"a&quot;\u{301} onload=alert(1) b\""))
        // Read the path back: each `Mx yhNv1h-Nz` is a run of N dark modules in row y from column x.
        let path = try #require(svg.firstMatch(of: /d="([^"]*)"/)).1
        var drawn = Set<[Int]>()
        for run in path.matches(of: /M(\d+) (\d+)h(\d+)v1h-(\d+)z/) {
            let (x, y, length) = (Int(run.1)! - 4, Int(run.2)! - 4, Int(run.3)!)
            #expect(Int(run.4)! == length)
            for column in x..<(x + length) { drawn.insert([y, column]) }
        }
        var dark = Set<[Int]>()
        for (row, modules) in code.modules.enumerated() { for (column, isDark) in modules.enumerated() where isDark { dark.insert([row, column]) } }
        #expect(drawn == dark)
    }

    @Test("the terminal drawing has a quiet zone and two module rows per line")
    func terminal() throws {
        let code = try QRCode.encode("haapi")
        let lines = code.terminalString(quietZone: 2).split(separator: "\n")
        #expect(lines.count == (code.size + 4 + 1) / 2)
        #expect(lines.allSatisfy { $0.count == code.size + 4 })
        #expect(lines.first?.allSatisfy { $0 == "█" } == true, "the quiet zone is light")
    }
}
