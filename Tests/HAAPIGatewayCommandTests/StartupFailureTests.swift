import Foundation
import HAAPIGateway
import NIOCore
import NIOPosix
import Testing

@testable import GatewayTestSupport

/// Every startup failure is one clear line on standard error with an exit status of its own (documented in `--help`),
/// for every subcommand that listens, and a gateway that never listened stops at once instead of draining.
@Suite("Startup failures: one line and a distinct exit status", .startsPrograms())
struct StartupFailureTests {
    /// A loopback port held by a listener for the duration of `body`.
    static func withTakenPort<T>(_ body: (Int) async throws -> T) async throws -> T {
        let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        defer { channel.close(promise: nil) }
        return try await body(channel.localAddress?.port ?? 0)
    }

    /// The lines a run wrote to standard error.
    static func errorLines(_ result: ProcessResult) -> [String] {
        result.standardError.split(separator: "\n").map(String.init).filter { !$0.isEmpty }
    }

    /// A drain long enough that a run which drained could not finish inside the 60 s `runGateway` allows.
    static let longDrain = ["HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "120", "HAAPI_GATEWAY_LOGGING_LEVEL": "critical"]

    @Test("serve, login and demo-server on a port in use: one line naming host and port, exit 69, no drain")
    func addressInUse() async throws {
        try await Self.withTakenPort { port in
            for arguments in [
                ["serve", "--port", "\(port)"], ["login", "--port", "\(port)", "--timeout-seconds", "60"], ["demo-server", "--port", "\(port)"],
            ] {
                let started = ContinuousClock.now
                let result = try await runGateway(arguments, environment: Self.longDrain, directory: Repository.root)
                #expect(result.status == StartupFailure.addressInUseStatus, "\(arguments[0]): \(result.standardError)")
                #expect(
                    Self.errorLines(result) == [
                        "haapi-gateway: cannot listen on 127.0.0.1:\(port): the address is already in use (another process listens there)"
                    ]
                )
                #expect(!result.standardError.contains("interrupted"))
                // It did not wait out the 120 s drain (runGateway would have stopped it at 60 s with another status).
                #expect(ContinuousClock.now - started < .seconds(60))
            }
        }
    }

    @Test("with logging.format json a failure to start is a JSON object too, with its exitStatus; nothing on standard error is plain text")
    func failuresAreJSONInJSONMode() async throws {
        let json = ["HAAPI_GATEWAY_LOGGING_FORMAT": "json"]
        let invalid = try await runGateway(["serve", "--port", "70000"], environment: json, directory: Repository.root)
        #expect(invalid.status == StartupFailure.configurationStatus)
        let refused = JSONLogLines(invalid.standardError)
        #expect(refused.notObjects.isEmpty && refused.objects.count == 1, "\(invalid.standardError)")
        let failure = refused.objects.first ?? [:]
        #expect(JSONLogLines.number(failure["exitStatus"]) == 78)
        #expect(failure["level"] as? String == "critical")
        #expect((failure["message"] as? String)?.hasPrefix("invalid configuration: server.port (flag --port)") == true, "\(failure)")
        #expect((failure["problems"] as? [Any])?.count == 1)
        #expect(invalid.standardOutput.isEmpty)

        try await Self.withTakenPort { port in
            let taken = try await runGateway(
                ["serve", "--port", "\(port)"],
                environment: Self.longDrain.merging(json) { $1 },
                directory: Repository.root
            )
            #expect(taken.status == StartupFailure.addressInUseStatus)
            let lines = JSONLogLines(taken.standardError)
            #expect(lines.notObjects.isEmpty, "\(taken.standardError)")
            #expect(
                lines.objects.contains {
                    $0["message"] as? String == "cannot listen on 127.0.0.1:\(port): the address is already in use (another process listens there)"
                        && JSONLogLines.number($0["exitStatus"]) == 69
                },
                "\(taken.standardError)"
            )
            #expect(taken.standardOutput.isEmpty)
        }
    }

    @Test("the metrics listener's port in use names the metrics address")
    func metricsAddressInUse() async throws {
        try await Self.withTakenPort { port in
            let result = try await runGateway(
                ["serve", "--port", "0"],
                environment: Self.longDrain.merging(["HAAPI_GATEWAY_METRICS_ENABLED": "true", "HAAPI_GATEWAY_METRICS_PORT": "\(port)"]) { $1 },
                directory: Repository.root
            )
            #expect(result.status == StartupFailure.addressInUseStatus)
            #expect(result.standardError.contains("haapi-gateway: cannot listen on 127.0.0.1:\(port): the address is already in use"))
        }
    }

    @Test("an address that is not this machine's: exit 68")
    func addressNotOnThisMachine() async throws {
        // 192.0.2.1 is TEST-NET-1 (RFC 5737), never assigned to a host.
        let result = try await runGateway(
            ["serve", "--host", "192.0.2.1", "--port", "8080"],
            environment: Self.longDrain,
            directory: Repository.root
        )
        #expect(result.status == StartupFailure.addressUnavailableStatus)
        #expect(Self.errorLines(result) == ["haapi-gateway: cannot listen on 192.0.2.1:8080: the address is not one of this machine's"])
    }

    /// How a run of the gateway is refused a privileged port here: the program and arguments that run it, and the
    /// address it is refused. Nil where it cannot be.
    ///
    /// As root, the gateway runs as nobody (setpriv, util-linux) in a network namespace of its own (unshare): there
    /// the ports below 1024 are privileged (a new namespace's `net.ipv4.ip_unprivileged_port_start` is 1024), whatever
    /// this machine's own namespace says (a container's is often 0, which let anyone bind any port and skipped this
    /// test). That namespace's loopback interface is down, so the gateway listens on every address and its upstream is
    /// named (one it cannot reach, which does not stop it starting), instead of the embedded demo's loopback listener.
    /// Otherwise the gateway runs as this user, on this machine's first privileged port, when it has any.
    static let privilegedPortRun: (executable: URL, arguments: [String], address: String)? = {
        let gateway = ["serve", "--templates", Repository.templates.path]
        if getuid() == 0 {
            let tools = ["/usr/bin/unshare", "/usr/bin/setpriv"]
            guard tools.allSatisfy({ FileManager.default.isExecutableFile(atPath: $0) }) else { return nil }
            return (
                URL(fileURLWithPath: tools[0]),
                ["--net", "--", tools[1], "--reuid=65534", "--regid=65534", "--clear-groups", Repository.executable.path] + gateway + [
                    "--host", "0.0.0.0", "--port", "1023", "--upstream", "https://127.0.0.1:1/oauth/v2/oauth-anonymous", "--client-id", "gateway",
                    "--client-secret", "not-asked",
                ],
                "0.0.0.0:1023"
            )
        }
        let start =
            (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_unprivileged_port_start", encoding: .utf8))
            .flatMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? 1024
        guard start > 1 else { return nil }
        return (Repository.executable, gateway + ["--port", "\(start - 1)"], "127.0.0.1:\(start - 1)")
    }()

    @Test(
        "a privileged port without the privilege: exit 77",
        .enabled(
            if: TestTools.requireAll || privilegedPortRun != nil,
            "needs root with unshare and setpriv (util-linux), or a machine whose net.ipv4.ip_unprivileged_port_start is above 1"
        )
    )
    func permissionDenied() async throws {
        let run = try #require(
            Self.privilegedPortRun,
            "no privileged port can be refused here: run as root with unshare and setpriv, or where net.ipv4.ip_unprivileged_port_start is above 1"
        )
        let result = try await runProgram(run.executable, run.arguments, environment: Self.longDrain, directory: URL(fileURLWithPath: "/"))
        #expect(result.status == StartupFailure.permissionDeniedStatus, "\(result.standardError)")
        #expect(
            Self.errorLines(result) == [
                "haapi-gateway: cannot listen on \(run.address): permission denied (ports below 1024 need privileges; use a higher port or a proxy)"
            ]
        )
    }

    @Test("missing templates or an unreadable certificate: one line, exit 66; a wrong value with it: exit 78")
    func unreadableInputs() async throws {
        let missing = try await runGateway(["serve", "--port", "0", "--templates", "/nonexistent-templates"], directory: Repository.root)
        #expect(missing.status == StartupFailure.unreadableInputStatus)
        #expect(
            Self.errorLines(missing) == ["haapi-gateway: invalid configuration: templates: templates directory /nonexistent-templates does not exist"]
        )
        let certificate = [
            "HAAPI_GATEWAY_SERVER_TLS_CERTIFICATE_FILE": "/nonexistent/cert.pem", "HAAPI_GATEWAY_SERVER_TLS_KEY_FILE": "/nonexistent/key.pem",
        ]
        let unreadable = try await runGateway(["serve", "--port", "0"], environment: certificate, directory: Repository.root)
        #expect(unreadable.status == StartupFailure.unreadableInputStatus, "\(unreadable.standardError)")
        #expect(unreadable.standardError.contains("cannot read /nonexistent/cert.pem"))
        let mixed = try await runGateway(
            ["serve", "--port", "0"],
            environment: certificate.merging(["HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "-1"]) { $1 },
            directory: Repository.root
        )
        #expect(mixed.status == StartupFailure.configurationStatus)
    }

    @Test("--help of serve, login and demo-server documents the exit statuses")
    func helpDocumentsStatuses() async throws {
        for command in ["serve", "login", "demo-server"] {
            let help = try await runGateway([command, "--help"])
            let text = help.standardOutput.replacingOccurrences(of: "\n", with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
            for status in ["66", "68", "69", "77", "78"] {
                #expect(text.contains(" \(status) "), "\(command) --help lacks \(status)")
            }
        }
    }
}
