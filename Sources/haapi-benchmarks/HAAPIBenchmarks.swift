import Foundation
import HAAPI

/// Micro benchmarks of the HAAPI library (not a test): decoding the largest sample and creating one DPoP proof.
///
/// Usage: `swift run -c release haapi-benchmarks <samples directory or sample file> <output file>`
@main
struct HAAPIBenchmarks {
    struct Result {
        let name: String
        let iterations: Int
        let nanosecondsPerOperation: Double
    }

    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard arguments.count == 2, let samplesArgument = arguments.first, let outputPath = arguments.last else {
            FileHandle.standardError.write(Data("usage: haapi-benchmarks <samples directory or sample file> <output file>\n".utf8))
            exit(2)
        }
        let sample = try largestSample(at: URL(fileURLWithPath: samplesArgument))
        let data = try Data(contentsOf: sample)

        let decode = measure(name: "decode \(sample.lastPathComponent) (\(data.count) bytes)", iterations: 20_000) {
            _ = try? HAAPIResponse.decode(status: 200, contentType: "application/vnd.auth+json", body: data)
        }
        let parse = measure(name: "parse only (JSONValue.parse) \(sample.lastPathComponent)", iterations: 20_000) {
            _ = try? JSONValue.parse(data)
        }
        let key = DPoPKey()
        guard let url = URL(string: "https://idp.example.com/dev/authn/authenticate?x=1") else { exit(1) }
        let proof = measure(name: "create DPoP proof (ES256, with ath and nonce)", iterations: 20_000) {
            _ = try? DPoPProof.make(key: key, method: "POST", url: url, accessToken: "haapi-access-token", nonce: "server-nonce")
        }

        var report = "haapi-benchmarks (\(Date()))\nsample: \(sample.path)\n"
        for result in [decode, parse, proof] {
            report += "\(result.name): \(String(format: "%.0f", result.nanosecondsPerOperation)) ns/op over \(result.iterations) iterations\n"
        }
        print(report, terminator: "")
        try report.write(toFile: outputPath, atomically: true, encoding: .utf8)
    }

    /// The largest `.json` file at `url` (a directory, searched recursively) or `url` itself.
    static func largestSample(at url: URL) throws -> URL {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CocoaError(.fileNoSuchFile)
        }
        guard isDirectory.boolValue else { return url }
        var best: (URL, Int)?
        let enumerator = FileManager.default.enumerator(at: url, includingPropertiesForKeys: [.fileSizeKey])
        while let file = enumerator?.nextObject() as? URL {
            guard file.pathExtension == "json" else { continue }
            let size = (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
            if size > (best?.1 ?? -1) { best = (file, size) }
        }
        guard let best else { throw CocoaError(.fileNoSuchFile) }
        return best.0
    }

    static func measure(name: String, iterations: Int, _ operation: () -> Void) -> Result {
        for _ in 0..<(iterations / 10) { operation() }  // warm-up
        let clock = ContinuousClock()
        let elapsed = clock.measure {
            for _ in 0..<iterations { operation() }
        }
        let (seconds, attoseconds) = elapsed.components
        let nanoseconds = Double(seconds) * 1e9 + Double(attoseconds) / 1e9
        return Result(name: name, iterations: iterations, nanosecondsPerOperation: nanoseconds / Double(iterations))
    }
}
