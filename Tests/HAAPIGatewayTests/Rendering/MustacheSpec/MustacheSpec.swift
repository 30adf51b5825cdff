import Foundation

@testable import GatewayTestSupport

/// Where the official Mustache specification's JSON files are (`../shared/mustache-spec` beside the repository, never
/// copied into it) and which of its modules the engine implements.
enum MustacheSpec {
    static let directory = Repository.root.deletingLastPathComponent().appendingPathComponent("shared/mustache-spec")

    /// The modules every Mustache implements; the engine passes every case of them.
    static let requiredFiles = ["interpolation", "sections", "inverted", "comments", "partials", "delimiters"]
    /// Optional modules whose tags the engine refuses when a template loads.
    static let refusedFiles = ["~inheritance", "~dynamic-names"]

    static var isAvailable: Bool {
        FileManager.default.fileExists(atPath: directory.appendingPathComponent("interpolation.json").path)
    }

    /// The spec's files are needed where the test run must not skip anything, and otherwise used when present.
    static var shouldRun: Bool { isAvailable || TestTools.requireAll }

    /// The cases of `files` in order; empty when a file is missing or broken (the tests that load them throwing report it).
    static func casesOrNone(in files: [String]) -> [MustacheSpecCase] {
        (try? cases(in: files)) ?? []
    }

    static func cases(in files: [String]) throws(MustacheSpecFileError) -> [MustacheSpecCase] {
        var cases: [MustacheSpecCase] = []
        for file in files { cases += try MustacheSpecCase.load(file: file, directory: directory) }
        return cases
    }
}
