import Foundation
import Testing
@testable import GatewayTestSupport

/// `scripts/benchmark --tiny` runs the whole macro benchmark on a few rounds and sessions with the binaries of this
/// build, and writes its JSON and Markdown. Only that it runs and reports is checked: performance is never asserted in
/// tests. Needs Debian's nginx and wrk, which `.ci/run` installs.
struct BenchmarkScriptTests {
    private struct Results: Decodable {
        struct SignIn: Decodable {
            let rounds: Int
            let overhead_median_ms: Double
        }
        struct Throughput: Decodable {
            let gateway_requests_per_second: Double
            let nginx_requests_per_second: Double
        }
        struct Memory: Decodable {
            struct Level: Decodable { let sessions: Int }
            let levels: [Level]
        }
        struct Startup: Decodable { let first_page_ms: Double }
        struct Target: Decodable { let name: String }
        let sign_in: SignIn
        let throughput: Throughput
        let memory: Memory
        let startup: Startup
        let targets: [Target]
    }

    @Test(.enabled(if: TestTools.benchmarkToolsAvailable, "needs Debian's nginx and wrk (.ci/run installs them)"))
    func theBenchmarkScriptRunsOnATinyInput() async throws {
        let output = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", Repository.root.appendingPathComponent("scripts/benchmark").path, "--tiny", "--bin-dir",
                Repository.executable.deletingLastPathComponent().path, "--output-dir", output.path,
            ],
            seconds: 300)
        #expect(result.status == 0, "scripts/benchmark --tiny failed: \(result.standardOutput.suffix(2000)) \(result.standardError.suffix(2000))")
        let results = try JSONDecoder().decode(Results.self, from: Data(contentsOf: output.appendingPathComponent("results.json")))
        #expect(results.sign_in.rounds == 3)
        #expect(results.throughput.gateway_requests_per_second > 0 && results.throughput.nginx_requests_per_second > 0)
        #expect(results.memory.levels.map(\.sessions) == [10, 20, 40])
        #expect(results.startup.first_page_ms > 0)
        #expect(results.targets.count == 6)
        let table = try String(contentsOf: output.appendingPathComponent("results.md"), encoding: .utf8)
        #expect(table.contains("| target | measured | target | met |"))
    }
}
