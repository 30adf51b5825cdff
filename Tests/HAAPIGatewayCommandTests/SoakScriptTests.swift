import Foundation
import Testing

@testable import GatewayTestSupport

/// `scripts/soak --faults` on a short compressed schedule with the binary of this build: the upstream goes down, slow and
/// 5xx and the webhook fails while browsers sign in; every attempt must end signed in or on a clear page, and every
/// completed sign-in's tokens must reach the webhook exactly once (what the 10-minute run in the closing note measures
/// at scale). Figures are never asserted, only that nothing was lost or unclear and that each fault had an effect.
/// `scripts/soak --replicas` does the same for two PostgreSQL-store replicas: one killed and started again, then the
/// database restarted, while browsers and devices (RFC 8628) sign in through both in turn. The two soaks run one after
/// the other (each loads the machine).
@Suite(.startsPrograms(.heavy))
struct SoakScriptTests {
    private struct Report: Decodable {
        struct SignIns: Decodable {
            let completed: Int
            let failed_clear: Int
            let failed_otherwise: Int
        }
        struct Tokens: Decodable {
            let delivered: Int
            let lost: Int
            let extra: Int
            let bad_signatures: Int
        }
        struct Phase: Decodable { let name: String }
        let sign_ins: SignIns
        let tokens: Tokens
        let phases: [Phase]
        let faults_without_effect: [String]
    }

    private struct ReplicaReport: Decodable {
        struct SignIns: Decodable {
            let completed: Int
            let failed_otherwise: Int
        }
        struct Kinds: Decodable {
            let browser: SignIns
            let device: SignIns
        }
        struct BrowserTokens: Decodable {
            let delivered: Int
            let lost: Int
            let duplicates: Int
            let bad_signatures: Int
        }
        struct DeviceTokens: Decodable {
            let tokens_received: Int
            let lost: Int
            let duplicates: Int
            let outcomes_lost: Int
        }
        struct Tokens: Decodable {
            let browser: BrowserTokens
            let device: DeviceTokens
            let lost_per_gateway_metrics: Int
        }
        struct Phase: Decodable { let name: String }
        let sign_ins: Kinds
        let tokens: Tokens
        let phases: [Phase]
        let faults_without_effect: [String]
    }

    /// Runs `scripts/soak` with `arguments` and this build's binary in a scratch directory of its own; its exit status,
    /// the end of what it printed, and its report (nil when it wrote none that reads).
    private static func soak<Parsed: Decodable>(
        _ arguments: [String],
        seconds: Double,
        report: Parsed.Type
    ) async throws -> (status: Int32, output: String, report: Parsed?) {
        let scratch = try Repository.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        let result = try await runProgram(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", Repository.root.appendingPathComponent("scripts/soak").path] + arguments
                + ["--binary", Repository.executable.path, "--scratch", scratch.path],
            seconds: seconds
        )
        let output = "\(result.standardOutput.suffix(4000))\n\(result.standardError.suffix(2000))"
        let parsed = try? JSONDecoder().decode(Parsed.self, from: Data(contentsOf: scratch.appendingPathComponent("soak-report.json")))
        return (result.status, output, parsed)
    }

    @Test func theSoakWithFaultsLosesNoTokenAndShowsOnlyClearPages() async throws {
        let (status, output, parsed) = try await Self.soak(
            [
                "--faults", "--minutes", "0.75", "--concurrency", "8", "--settle-seconds", "90", "--sample-seconds", "5",
                "--plan", "normal:2,down:2,normal:2,slow:2,normal:1,5xx:2,normal:1,webhook:3,normal:2",
            ],
            seconds: 300,
            report: Report.self
        )
        #expect(status == 0, "scripts/soak --faults failed: \(output)")
        let report = try #require(parsed, "no soak-report.json: \(output)")
        #expect(report.sign_ins.completed > 0 && report.sign_ins.failed_clear > 0, "\(output)")
        #expect(report.sign_ins.failed_otherwise == 0, "\(output)")
        #expect(report.tokens.lost == 0 && report.tokens.extra == 0 && report.tokens.bad_signatures == 0, "\(output)")
        #expect(report.tokens.delivered >= report.sign_ins.completed, "\(output)")
        #expect(report.faults_without_effect.isEmpty, "\(report.faults_without_effect)")
        #expect(Set(report.phases.map(\.name)).isSuperset(of: ["upstream down", "upstream slow", "upstream 5xx", "webhook failing"]))
    }

    @Test(.enabled(if: TestTools.postgresAvailable, "needs PostgreSQL's initdb, postgres, psql and pg_dump (Debian's postgresql)"))
    func theSoakAcrossReplicasLosesNoTokenAndDeliversNoneTwice() async throws {
        let (status, output, parsed) = try await Self.soak(
            ["--replicas", "--minutes", "1", "--concurrency", "6", "--devices", "2", "--settle-seconds", "120", "--sample-seconds", "5"],
            seconds: 420,
            report: ReplicaReport.self
        )
        #expect(status == 0, "scripts/soak --replicas failed: \(output)")
        let report = try #require(parsed, "no soak-report.json: \(output)")
        #expect(report.sign_ins.browser.completed > 0 && report.sign_ins.device.completed > 0, "\(output)")
        #expect(report.sign_ins.browser.failed_otherwise == 0 && report.sign_ins.device.failed_otherwise == 0, "\(output)")
        #expect(report.tokens.browser.lost == 0 && report.tokens.browser.duplicates == 0 && report.tokens.browser.bad_signatures == 0, "\(output)")
        #expect(report.tokens.browser.delivered >= report.sign_ins.browser.completed, "\(output)")
        #expect(report.tokens.device.lost == 0 && report.tokens.device.duplicates == 0 && report.tokens.device.outcomes_lost == 0, "\(output)")
        #expect(report.tokens.device.tokens_received >= report.sign_ins.device.completed, "\(output)")
        #expect(report.tokens.lost_per_gateway_metrics == 0, "\(output)")
        #expect(report.faults_without_effect.isEmpty, "\(report.faults_without_effect)")
        #expect(report.phases.map(\.name) == ["normal", "replica killed", "normal", "database restarting", "normal"])
    }
}
