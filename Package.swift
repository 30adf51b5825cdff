// swift-tools-version: 6.1
import Foundation
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

/// `scripts/fuzz` builds the libFuzzer targets in `Fuzz/` with HAAPI_GATEWAY_FUZZING=1: then the three libraries they fuzz,
/// and nothing else, carry libFuzzer's coverage counters and AddressSanitizer (each execution scans only their counters).
let fuzzedLibrarySettings: [SwiftSetting] =
    ProcessInfo.processInfo.environment["HAAPI_GATEWAY_FUZZING"] == "1"
    ? swiftSettings + [.unsafeFlags(["-sanitize=fuzzer,address", "-enable-testing"])] : swiftSettings

let package = Package(
    name: "haapi-gateway",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "HAAPI", targets: ["HAAPI"]),
        .library(name: "HAAPIDemoServer", targets: ["HAAPIDemoServer"]),
        .library(name: "HAAPIGateway", targets: ["HAAPIGateway"]),
        .library(name: "HAAPIGatewayPostgres", targets: ["HAAPIGatewayPostgres"]),
        .library(name: "HAAPIHostTools", targets: ["HAAPIHostTools"]),
        .executable(name: "haapi-gateway", targets: ["haapi-gateway"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        // OTLP over HTTP only: its gRPC exporter is most of swift-otel's build, and the gateway needs one exporter.
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // MARK: HAAPI client library (driver + SDK layers); no web-framework dependency.
        .target(
            name: "HAAPI",
            dependencies: [
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: fuzzedLibrarySettings
        ),

        // MARK: Embedded demo HAAPI server; an independent implementation of the wire format (never imports HAAPI).
        .target(
            name: "HAAPIDemoServer",
            dependencies: [
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: The gateway: a server-rendered page per HAAPI step, sessions, token callbacks.
        .target(
            name: "HAAPIGateway",
            dependencies: [
                "HAAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "OTel", package: "swift-otel"),
            ],
            swiftSettings: fuzzedLibrarySettings,
            plugins: ["BuiltInFiles"]
        ),

        // MARK: Builds templates/ and the source revision into HAAPIGateway, so that the program needs no file beside it.
        .plugin(name: "BuiltInFiles", capability: .buildTool(), dependencies: ["embed-built-in-files"]),
        .executableTarget(name: "embed-built-in-files", path: "Tools/embed-built-in-files", swiftSettings: swiftSettings),

        // MARK: The gateway's PostgreSQL storage (`sessions.store: postgres`): the only target that imports PostgresNIO.
        .target(
            name: "HAAPIGatewayPostgres",
            dependencies: [
                "HAAPI",
                "HAAPIGateway",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: The tools a host runs: `login` (its one-sign-in gateway and its device client, `--via`), `keep`, `logout`,
        // `token`, the credential helpers and `proxy`. The gateway never imports it.
        .target(
            name: "HAAPIHostTools",
            dependencies: [
                "HAAPI",
                "HAAPIGateway",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: fuzzedLibrarySettings
        ),

        // MARK: Thin executable.
        .executableTarget(
            name: "haapi-gateway",
            dependencies: [
                "HAAPIDemoServer",
                "HAAPIGateway",
                "HAAPIGatewayPostgres",
                "HAAPIHostTools",
                "HAAPI",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: The macro benchmark's load driver (run by scripts/benchmark; not part of the gateway).
        .executableTarget(
            name: "haapi-benchmark-driver",
            dependencies: [
                "HAAPI",
                "HAAPIGateway",
                "HAAPIGatewayPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),

        // MARK: Tests.
        // Sets, before `main`, what the test process needs of its environment (Swift Testing's thrown-error backtraces off).
        .target(name: "TestProcessEnvironment", path: "Tests/TestProcessEnvironment"),
        // The tests' shared support: a browser (a cookie jar, forms scraped from pages and posted back), the one test clock and
        // log capture, PostgreSQL servers and spawned processes.
        .target(
            name: "GatewayTestSupport",
            dependencies: [
                "TestProcessEnvironment",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/GatewayTestSupport",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HAAPITests",
            dependencies: [
                "HAAPI",
                "GatewayTestSupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HAAPIDemoServerTests",
            dependencies: [
                "GatewayTestSupport",
                "HAAPIDemoServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
            ],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HAAPIGatewayTests",
            dependencies: [
                "GatewayTestSupport",
                "HAAPIGateway",
                "HAAPIGatewayPostgres",
                "HAAPIHostTools",
                "HAAPI",
                "HAAPIDemoServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            // Inputs the fuzz targets reported, read by path (`HostileUpstreamRenderingTests`).
            exclude: ["Fixtures"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HAAPIHostToolsTests",
            dependencies: [
                "GatewayTestSupport",
                "HAAPIHostTools",
                "HAAPIGateway",
                "HAAPI",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HAAPIGatewayCommandTests",
            dependencies: [
                "GatewayTestSupport",
                "haapi-gateway",
                "haapi-benchmark-driver",
                "HAAPIGateway",
                "HAAPIHostTools",
                "HAAPIDemoServer",
                "HAAPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The deployment recipes' tests read the Kubernetes manifest and the configurations they install.
                .product(name: "Yams", package: "Yams"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HAAPIIntegrationTests",
            dependencies: [
                "HAAPI",
                "HAAPIDemoServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
