import Foundation
import HAAPI

/// The repository's HAAPI samples and templates, found from this file.
enum BenchmarkInputs {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let samples = repository.appendingPathComponent("Tests/HAAPITests/Fixtures/samples")
    static let templates = repository.appendingPathComponent("templates")

    /// A sample by file name (searched in the samples' subdirectories).
    static func sample(_ name: String) -> Data {
        guard let url = sampleFiles.first(where: { $0.lastPathComponent == name }), let data = try? Data(contentsOf: url) else {
            fatalError("no HAAPI sample \(name) under \(samples.path)")
        }
        return data
    }

    /// A sample decoded as a step.
    static func representation(_ name: String) throws -> Representation {
        guard case .representation(let step) = try HAAPIResponse.decode(status: 200, contentType: "application/vnd.auth+json", body: sample(name))
        else {
            fatalError("the HAAPI sample \(name) is not a step")
        }
        return step
    }

    /// The largest sample's file name.
    static var largestSampleName: String { largestSampleFile.lastPathComponent }

    /// The largest sample's bytes.
    static func largestSample() -> Data { sample(largestSampleName) }

    private static var largestSampleFile: URL {
        guard let file = sampleFiles.max(by: { size(of: $0) < size(of: $1) }) else { fatalError("no HAAPI samples under \(samples.path)") }
        return file
    }

    private static var sampleFiles: [URL] {
        let enumerator = FileManager.default.enumerator(at: samples, includingPropertiesForKeys: [.fileSizeKey])
        var files: [URL] = []
        while let file = enumerator?.nextObject() as? URL {
            if file.pathExtension == "json" { files.append(file) }
        }
        return files
    }

    private static func size(of file: URL) -> Int {
        (try? file.resourceValues(forKeys: [.fileSizeKey]).fileSize) ?? 0
    }
}
