import Foundation
import GatewayTestSupport

/// Validates recorded HAAPI bodies against the shared JSON Schema with Python's `jsonschema`
/// (Draft 2020-12), run through `Foundation.Process`. Missing python3 or jsonschema is a failure.
enum SchemaValidator {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static var schemaURL: URL {
        get throws {
            guard let url = Bundle.module.url(forResource: "haapi-representation.schema", withExtension: "json", subdirectory: "Fixtures")
            else { throw Failure(description: "schema fixture not found in the test bundle") }
            return url
        }
    }

    private static let script = """
        import json, sys
        from jsonschema import Draft202012Validator
        schema = json.load(open(sys.argv[1]))
        Draft202012Validator.check_schema(schema)
        validator = Draft202012Validator(schema)
        bad = 0
        for path in sys.argv[2:]:
            body = json.load(open(path))
            errors = list(validator.iter_errors(body))
            if errors:
                bad += 1
                print("INVALID", path, body.get("type") if isinstance(body, dict) else None, [e.message for e in errors[:3]])
        print("validated", len(sys.argv) - 2, "bodies,", bad, "invalid")
        sys.exit(1 if bad else 0)
        """

    /// Validates each distinct body; throws with python's output when any is invalid or python fails.
    ///
    /// Python runs on a dispatch queue, not on the tests' cooperative thread pool: on a 2-core machine that pool has
    /// two threads, and a blocking wait there starves every other test running in parallel.
    static func validate(_ bodies: [Data]) async throws -> Int {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try validateBlocking(bodies) })
            }
        }
    }

    private static func validateBlocking(_ bodies: [Data]) throws -> Int {
        var distinct: [Data] = []
        for body in bodies where !distinct.contains(body) { distinct.append(body) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-schema-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for (index, body) in distinct.enumerated() {
            let url = directory.appendingPathComponent("body-\(index).json")
            try body.write(to: url)
            paths.append(url.path)
        }
        if let dump = ProcessInfo.processInfo.environment["HAAPI_DEMO_DUMP_DIR"] {
            // Debugging aid: keep a copy of the validated bodies.
            for (index, body) in distinct.enumerated() {
                try? body.write(to: URL(fileURLWithPath: dump).appendingPathComponent("\(UUID().uuidString)-\(index).json"))
            }
        }
        let scriptURL = directory.appendingPathComponent("validate.py")
        try Data(script.utf8).write(to: scriptURL)
        let output = Pipe()
        let process = try SpawnedProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", scriptURL.path, try schemaURL.path] + paths,
            environment: ProcessInfo.processInfo.environment,
            standardOutput: output,
            standardError: output
        )
        let data = output.fileHandleForReading.readDataToEndOfFile()  // off the pool: validate(_:) runs this on a dispatch queue
        let status = process.waitUntilExit()  // off the pool: as above
        guard status == 0 else {
            throw Failure(description: "schema validation failed (exit \(status)): \(String(decoding: data, as: UTF8.self))")
        }
        return distinct.count
    }
}
