import Foundation
import Testing

@testable import GatewayTestSupport

/// `scripts/benchmark --tiny` runs the whole macro benchmark on a few rounds and sessions with the binaries of this
/// build, and writes its JSON and Markdown. Only that it runs and reports is checked: performance is never asserted in
/// tests. Needs Debian's nginx and wrk, which `.ci/run` installs, and for its PostgreSQL section (skipped with a line
/// in the results without it) Debian's postgresql, which `.ci/run` installs too.
@Suite(.startsPrograms(.heavy))
struct BenchmarkScriptTests {
    private struct Results: Decodable {
        struct SignIn: Decodable {
            let rounds: Int
            let overhead_median_ms: Double
            let browser_exchanges_per_sign_in: Int
            let floor_sign_in_ms: Double
            let sign_in_over_floor: Double
            let cpu: [String: Double]
        }
        struct Throughput: Decodable {
            let gateway_requests_per_second: Double
            let healthz_requests_per_second: Double
            let nginx_requests_per_second: Double
            let healthz_ratio: Double
        }
        struct Memory: Decodable {
            struct Level: Decodable { let sessions: Int }
            let levels: [Level]
        }
        struct Startup: Decodable { let first_page_ms: Double }
        struct Postgres: Decodable {
            struct SignIn: Decodable {
                struct Step: Decodable { let overhead_median_ms: Double }
                let rounds: Int
                let steps: [Step]
                let overhead_median_ms: Double
            }
            struct RoundTrips: Decodable {
                struct Statement: Decodable { let median_ms: Double }
                let rounds: Int
                let statements: [String: Statement]
                let step_median_ms: Double
                let post_median_ms: Double
                let cpu_per_statement_ms: [String: Double]
                let post_cpu_ms: Double
            }
            struct Rate: Decodable {
                struct Variant: Decodable {
                    let gateways: Int
                    let sign_ins_per_second: Double
                    let failures: Int
                    let cpu_ms_per_sign_in: [String: Double]
                }
                let memory: Variant
                let postgres: Variant
                let cpu_ceiling_ratio: Double
            }
            let skipped: String?
            let sign_in: SignIn?
            let round_trips: RoundTrips?
            let rate: Rate?
            let idle: Idle?
            let devices: Devices?
        }
        /// The idle replicas' background work (#43 item 2).
        struct Idle: Decodable {
            struct Window: Decodable {
                let replicas: Int
                let statements_per_second_per_replica: Double
                let gateway_cpu_ms_per_second: [Double]
            }
            let replicas: [Window]
        }
        /// Device polling (#43 item 4).
        struct Devices: Decodable {
            let devices: Int
            let polls: Int
            let answers: [String: Int]
            let gateway_cpu_per_poll_ms: Double
            let statements_per_poll: Double
        }
        struct Target: Decodable {
            let name: String
            let met: Bool?
        }
        let sign_in: SignIn
        let throughput: Throughput
        let memory: Memory
        let startup: Startup
        let postgres: Postgres
        let targets: [Target]
        let tracing: Tracing
    }
    struct Tracing: Decodable {
        struct Variant: Decodable {
            let sign_ins_per_second: Double
            let gateway_cpu_ms_per_sign_in: Double
        }
        let skipped: String?
        let off: Variant?
        let unsampled: Variant?
        let sampled: Variant?
        let dropped_spans: Double?
    }

    @Test(.enabled(if: TestTools.benchmarkToolsAvailable, "needs Debian's nginx and wrk (.ci/run installs them)"))
    func theBenchmarkScriptRunsOnATinyInput() async throws {
        let output = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try await Self.script(
            "benchmark",
            ["--tiny", "--bin-dir", Repository.executable.deletingLastPathComponent().path, "--output-dir", output.path],
            seconds: 300
        )
        #expect(result.status == 0, "scripts/benchmark --tiny failed: \(result.standardOutput.suffix(2000)) \(result.standardError.suffix(2000))")
        let results = try JSONDecoder().decode(Results.self, from: Data(contentsOf: output.appendingPathComponent("results.json")))
        #expect(results.sign_in.rounds == 3)
        #expect(results.throughput.gateway_requests_per_second > 0 && results.throughput.nginx_requests_per_second > 0)
        #expect(results.throughput.healthz_requests_per_second > 0 && results.throughput.healthz_ratio > 0)
        #expect(results.memory.levels.map(\.sessions) == [10, 20, 40])
        #expect(results.startup.first_page_ms > 0)
        #expect(results.targets.count == 11)
        let table = try String(contentsOf: output.appendingPathComponent("results.md"), encoding: .utf8)
        #expect(table.contains("| target | measured | target | met |"))
        // The post/redirect/get floor: one plain exchange for the first page and two for each of the three later steps.
        #expect(results.sign_in.browser_exchanges_per_sign_in == 7)
        #expect(results.sign_in.floor_sign_in_ms > 0 && results.sign_in.sign_in_over_floor > 0)
        #expect(table.contains("Its post/redirect/get floor"))
        // The floor in CPU: the driver reads its own CPU and the gateway's for each part of a round.
        let cpu = results.sign_in.cpu
        for part in ["direct_client_ms", "browser_ms", "gateway_ms", "exchange_client_ms", "exchange_gateway_ms"] {
            #expect((cpu[part] ?? 0) > 0, "the sign-ins' \(part) is not measured: \(cpu)")
        }
        #expect(cpu["beyond_floor_ms"] != nil && table.contains("of CPU beyond its floor"))
        // The PostgreSQL section: measured where PostgreSQL is installed (always under .ci/run), else skipped visibly.
        let postgresTargets = results.targets.suffix(4)
        #expect(postgresTargets.prefix(2).allSatisfy { $0.name.hasPrefix("PostgreSQL session store") })
        #expect(postgresTargets.dropFirst(2).first?.name.hasPrefix("two PostgreSQL replicas") == true)
        #expect(postgresTargets.last?.name.hasPrefix("PostgreSQL session store: statements per pending device poll") == true)
        // The cost of tracing (#57): off, on unsampled, on exporting, where opentelemetry-proto is installed (.ci/run installs it).
        if TestTools.otlpCollectorAvailable {
            let variants = [results.tracing.off, results.tracing.unsampled, results.tracing.sampled]
            #expect(variants.allSatisfy { ($0?.sign_ins_per_second ?? 0) > 0 && ($0?.gateway_cpu_ms_per_sign_in ?? 0) > 0 }, "\(results.tracing)")
            #expect(results.tracing.dropped_spans != nil && table.contains("| on, every trace exported |"))
        } else {
            #expect(results.tracing.skipped != nil && table.contains("Tracing: skipped"))
        }
        // The charts (scripts/benchmark-charts, matplotlib, which .ci/run installs): drawn beside results.md.
        if TestTools.chartsAvailable {
            for chart in ["sign-in-steps", "page-throughput", "memory-per-session"] + (results.postgres.skipped == nil ? ["session-stores"] : []) {
                let svg = try String(contentsOf: output.appendingPathComponent("\(chart).svg"), encoding: .utf8)
                #expect(svg.contains("<svg") && svg.contains("</svg>"), "\(chart).svg is not an SVG drawing")
            }
        } else {
            #expect(result.standardOutput.contains("charts: skipped"))
        }
        if let skipped = results.postgres.skipped {
            #expect(!TestTools.postgresAvailable, "PostgreSQL is installed, yet the benchmark skipped it: \(skipped)")
            #expect(postgresTargets.allSatisfy { $0.met == nil })
            #expect(table.contains("PostgreSQL session store: skipped"))
        } else {
            let signIn = try #require(results.postgres.sign_in)
            let rate = try #require(results.postgres.rate)
            #expect(signIn.rounds == 3 && signIn.steps.count == 4)
            #expect(postgresTargets.allSatisfy { $0.met != nil })
            #expect(rate.memory.gateways == 1 && rate.postgres.gateways == 2)
            #expect(rate.memory.sign_ins_per_second > 0 && rate.postgres.sign_ins_per_second > 0)
            #expect(rate.memory.failures == 0 && rate.postgres.failures == 0)
            // What a sign-in cost the machine's CPU in each variant, by process, and the ceiling that puts on the ratio. The
            // processes' CPU is read in clock ticks (10 ms), which a tiny run's second may not reach; the machine's (every
            // core's) and the browsers' (wait4) always do.
            for variant in [rate.memory, rate.postgres] {
                let cpu = variant.cpu_ms_per_sign_in
                #expect(["gateways", "server", "upstream", "rest"].allSatisfy { cpu[$0] != nil }, "\(cpu)")
                #expect(["gateways", "server", "upstream"].allSatisfy { (cpu[$0] ?? -1) >= 0 }, "\(cpu)")
                #expect((cpu["machine"] ?? 0) > 0 && (cpu["browsers"] ?? 0) > 0 && (cpu["machine_busy"] ?? 0) > 0, "\(cpu)")
            }
            #expect(rate.cpu_ceiling_ratio > 0 && table.contains("the rate ratio cannot exceed the ratio of those costs"))
            #expect(table.contains("| step | memory median (ms) | PostgreSQL median (ms) | added median (ms) | added p99 (ms) |"))
            // The storage layer alone: three statements a round, each timed, their sum the step (the claim and the save a post's).
            let roundTrips = try #require(results.postgres.round_trips)
            #expect(roundTrips.rounds == 12)
            #expect(Set(roundTrips.statements.keys) == ["claim", "save", "load"] && roundTrips.statements.values.allSatisfy { $0.median_ms > 0 })
            #expect(roundTrips.step_median_ms > 0 && roundTrips.post_median_ms > 0 && roundTrips.post_median_ms < roundTrips.step_median_ms)
            #expect(table.contains("The storage layer alone"))
            // What the statements cost the process making them, per statement, and a post's claim and save.
            #expect(Set(roundTrips.cpu_per_statement_ms.keys) == ["claim", "save", "load"])
            let cpu = roundTrips.cpu_per_statement_ms
            #expect(roundTrips.post_cpu_ms > 0 && abs(roundTrips.post_cpu_ms - (cpu["claim"] ?? 0) - (cpu["save"] ?? 0)) < 1e-9)
            #expect(table.contains("The CPU those statements cost"))
            try Self.expectDevices(results.postgres, table: table)
        }
    }

    /// `scripts/benchmark --only-devices` measures the idle replicas and device polling alone, and reports them.
    @Test(.enabled(if: TestTools.postgresAvailable, "needs Debian's postgresql (.ci/run installs it)"))
    func theBenchmarkScriptMeasuresDevicesAlone() async throws {
        let output = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try await Self.script(
            "benchmark",
            ["--only-devices", "--tiny", "--bin-dir", Repository.executable.deletingLastPathComponent().path, "--output-dir", output.path],
            seconds: 300
        )
        #expect(result.status == 0, "--only-devices failed: \(result.standardOutput.suffix(2000)) \(result.standardError.suffix(2000))")
        struct Only: Decodable { let postgres: Results.Postgres }
        let results = try JSONDecoder().decode(Only.self, from: Data(contentsOf: output.appendingPathComponent("results.json")))
        let table = try String(contentsOf: output.appendingPathComponent("results.md"), encoding: .utf8)
        try Self.expectDevices(results.postgres, table: table)
    }

    /// The idle windows (one replica, then two) and the pending polls: each device's code answered
    /// `authorization_pending` in one statement.
    private static func expectDevices(_ postgres: Results.Postgres, table: String) throws {
        let idle = try #require(postgres.idle)
        #expect(idle.replicas.map(\.replicas) == [1, 2])
        #expect(idle.replicas.allSatisfy { $0.gateway_cpu_ms_per_second.count == $0.replicas && $0.statements_per_second_per_replica >= 0 })
        let devices = try #require(postgres.devices)
        #expect(devices.devices == 64 && devices.polls > 0 && devices.gateway_cpu_per_poll_ms > 0)
        // Paced at the interval and 250 ms more; a poll slowed down past that under load is answered slow_down, by the same statement.
        #expect(Set(devices.answers.keys).isSubset(of: ["authorization_pending", "slow_down"]) && devices.answers["authorization_pending"] != nil)
        #expect(devices.statements_per_poll == 1)
        #expect(table.contains("Idle PostgreSQL-store replicas") && table.contains("Device polling"))
    }

    /// Runs `scripts/<name>` with python3 and `arguments`, ended after `seconds`.
    private static func script(_ name: String, _ arguments: [String], seconds: Double) async throws -> ProcessResult {
        try await runProgram(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", Repository.root.appendingPathComponent("scripts/\(name)").path] + arguments,
            seconds: seconds
        )
    }

    private struct Comparison: Decodable {
        struct Store: Decodable {
            struct Step: Decodable {
                let step: String
                let a_median_ms: Double
                let b_median_ms: Double
            }
            let skipped: String?
            let rounds: Int?
            let steps: [Step]?
            let a_gateway_cpu_per_step_ms: Double?
            let b_gateway_cpu_per_step_ms: Double?
        }
        struct Pages: Decodable {
            struct Build: Decodable {
                let page_requests_per_second: Double
                let healthz_requests_per_second: Double
                let healthz_ratio: Double
                let cpu_per_page_us: Double
            }
            let skipped: String?
            let rounds: Int?
            let a: Build?
            let b: Build?
            let page_ratio: Double?
        }
        let memory: Store
        let postgres: Store
        let pages: Pages
    }

    /// `scripts/benchmark-ab` compares two builds the way a change is judged: here this build against itself, which
    /// checks that both gateways are started, in both orders, compared round by round on both stores and reported, and
    /// their pages and `/healthz` measured with wrk (skipped, visibly, without it).
    @Test
    func theABScriptComparesTwoBuildsOnATinyInput() async throws {
        let output = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let binaries = Repository.executable.deletingLastPathComponent().path
        let result = try await Self.script("benchmark-ab", ["--a", binaries, "--b", binaries, "--tiny", "--output-dir", output.path], seconds: 300)
        #expect(result.status == 0, "scripts/benchmark-ab --tiny failed: \(result.standardOutput.suffix(2000)) \(result.standardError.suffix(2000))")
        let comparison = try JSONDecoder().decode(Comparison.self, from: Data(contentsOf: output.appendingPathComponent("ab.json")))
        let table = try String(contentsOf: output.appendingPathComponent("ab.md"), encoding: .utf8)
        var stores = [("memory", comparison.memory)]
        if let skipped = comparison.postgres.skipped {
            #expect(!TestTools.postgresAvailable, "PostgreSQL is installed, yet the comparison skipped it: \(skipped)")
            #expect(table.contains("## postgres: skipped"))
        } else {
            stores.append(("postgres", comparison.postgres))
        }
        for (name, store) in stores {
            #expect(store.rounds == 6, "\(name)")
            #expect(store.steps?.count == 4 && store.steps?.allSatisfy { $0.a_median_ms > 0 && $0.b_median_ms > 0 } == true, "\(name)")
            #expect((store.a_gateway_cpu_per_step_ms ?? -1) >= 0 && (store.b_gateway_cpu_per_step_ms ?? -1) >= 0, "\(name)")
            #expect(table.contains("## \(name) store (6 rounds)"))
        }
        let pages = comparison.pages
        if let skipped = pages.skipped {
            #expect(!TestTools.benchmarkToolsAvailable, "wrk is installed, yet the page comparison was skipped: \(skipped)")
            #expect(table.contains("## pages: skipped"))
        } else {
            #expect(pages.rounds == 2 && (pages.page_ratio ?? 0) > 0)
            for build in [pages.a, pages.b] {
                let build = try #require(build)
                #expect(build.page_requests_per_second > 0 && build.healthz_requests_per_second > 0 && build.healthz_ratio > 0)
                #expect(build.cpu_per_page_us >= 0)
            }
            #expect(table.contains("## pages (2 rounds of wrk"))
        }
    }

    /// `scripts/benchmark-ab --pages-only`, as CONTRIBUTING.md gives it: the page comparison alone, no sign-ins.
    @Test(.enabled(if: TestTools.benchmarkToolsAvailable, "needs wrk (.ci/run installs it)"))
    func theABScriptComparesPagesAlone() async throws {
        let output = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: output) }
        let binaries = Repository.executable.deletingLastPathComponent().path
        let result = try await Self.script(
            "benchmark-ab",
            ["--a", binaries, "--b", binaries, "--pages-only", "--tiny", "--output-dir", output.path],
            seconds: 300
        )
        #expect(result.status == 0, "--pages-only failed: \(result.standardOutput.suffix(2000)) \(result.standardError.suffix(2000))")
        struct PagesOnly: Decodable {
            let pages: Comparison.Pages
            let memory: Comparison.Store?
        }
        let comparison = try JSONDecoder().decode(PagesOnly.self, from: Data(contentsOf: output.appendingPathComponent("ab.json")))
        #expect(comparison.memory == nil, "no sign-ins")
        #expect(comparison.pages.rounds == 2 && (comparison.pages.page_ratio ?? 0) > 0)
        let table = try String(contentsOf: output.appendingPathComponent("ab.md"), encoding: .utf8)
        #expect(table.contains("## pages (2 rounds of wrk") && !table.contains("## memory store"))
    }

    /// The latest full run is kept with its charts (`docs/images/benchmark/results.json`): docs/performance.md shows what
    /// `scripts/benchmark --report` makes of it, and `scripts/benchmark-charts` draws the page's charts from it again.
    @Test
    func theLatestRunIsKeptWithItsCharts() async throws {
        let images = Repository.root.appendingPathComponent("docs/images/benchmark")
        let results = images.appendingPathComponent("results.json")
        let report = try await Self.script("benchmark", ["--report", results.path], seconds: 60)
        #expect(report.status == 0, "\(report.standardError)")
        #expect(report.standardOutput.contains("| target | measured | target | met |"))
        let page = try String(contentsOf: Repository.root.appendingPathComponent("docs/performance.md"), encoding: .utf8)
        #expect(page.contains(report.standardOutput), "docs/performance.md's latest run is not what scripts/benchmark --report makes of results.json")
        guard TestTools.chartsAvailable else { return }
        let drawn = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: drawn) }
        let charts = try await Self.script("benchmark-charts", [results.path, "--output-dir", drawn.path], seconds: 120)
        #expect(charts.status == 0, "\(charts.standardError)")
        let committed = try FileManager.default.contentsOfDirectory(atPath: images.path).filter { $0.hasSuffix(".svg") }.sorted()
        let redrawn = try FileManager.default.contentsOfDirectory(atPath: drawn.path).filter { $0.hasSuffix(".svg") }.sorted()
        #expect(!committed.isEmpty && redrawn == committed, "the charts drawn from results.json are the page's")
    }
}
