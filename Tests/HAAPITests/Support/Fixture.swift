import Foundation
import Testing

@testable import HAAPI

/// Loads files copied from `shared/haapi/samples/` into the test bundle.
enum Fixture {
    struct Missing: Error {}

    static func samplesDirectory() throws -> URL {
        guard let resources = Bundle.module.resourceURL else { throw Missing() }
        return resources.appendingPathComponent("Fixtures/samples")
    }

    /// Every `.json` sample, as paths relative to the samples directory, sorted.
    static func allSamplePaths() throws -> [String] {
        let root = try samplesDirectory()
        guard let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil) else { throw Missing() }
        var paths: [String] = []
        for case let url as URL in enumerator where url.pathExtension == "json" {
            paths.append(String(url.standardizedFileURL.path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        return paths.sorted()
    }

    static func data(_ path: String) throws -> Data {
        try Data(contentsOf: try samplesDirectory().appendingPathComponent(path))
    }

    /// Decodes a sample the way the client decodes an HTTP answer (problem content type for problem files).
    static func response(_ path: String) throws -> HAAPIResponse {
        let data = try data(path)
        let isProblem = path.contains("problem")
        return try HAAPIResponse.decode(
            status: isProblem ? 400 : 200,
            contentType: isProblem ? "application/problem+json" : "application/vnd.auth+json",
            body: data
        )
    }

    static func representation(_ path: String) throws -> Representation {
        guard case .representation(let step) = try response(path) else { throw Missing() }
        return step
    }

    static func problem(_ path: String) throws -> Problem {
        guard case .problem(let problem) = try response(path) else { throw Missing() }
        return problem
    }
}
