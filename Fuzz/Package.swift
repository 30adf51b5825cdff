// swift-tools-version: 6.1
import PackageDescription

// libFuzzer targets for the gateway, outside the normal build and `swift test`. `scripts/fuzz` builds them with
// HAAPI_GATEWAY_FUZZING=1, which gives the HAAPI, HAAPIGateway and HAAPIHostTools libraries libFuzzer's coverage,
// AddressSanitizer and `-enable-testing` (the targets reach internal parsers with `@testable import`); the other
// dependencies stay uninstrumented, so that an execution costs the code under test rather than a scan of every module's
// counters.
let fuzzSettings: [SwiftSetting] = [.unsafeFlags(["-parse-as-library", "-sanitize=fuzzer,address"])]
let fuzzLinking: [LinkerSetting] = [.unsafeFlags(["-sanitize=fuzzer,address"])]

let package = Package(
    name: "haapi-gateway-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "haapi-gateway", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        // The `<Target>_main` entry points SwiftPM's Linux link step asks for, handing over to libFuzzer's driver.
        .target(name: "FuzzDriver"),
        .executableTarget(
            name: "FuzzHAAPIResponseDecoder",
            dependencies: ["FuzzDriver", .product(name: "HAAPI", package: "haapi-gateway")],
            swiftSettings: fuzzSettings,
            linkerSettings: fuzzLinking
        ),
        .executableTarget(
            name: "FuzzFormBody",
            dependencies: ["FuzzDriver", .product(name: "HAAPIGateway", package: "haapi-gateway")],
            swiftSettings: fuzzSettings,
            linkerSettings: fuzzLinking
        ),
        .executableTarget(
            name: "FuzzSessionCookie",
            dependencies: [
                "FuzzDriver", .product(name: "HAAPIGateway", package: "haapi-gateway"), .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"), .product(name: "NIOCore", package: "swift-nio"),
            ],
            swiftSettings: fuzzSettings,
            linkerSettings: fuzzLinking
        ),
        .executableTarget(
            name: "FuzzStepRenderer",
            dependencies: [
                "FuzzDriver", .product(name: "HAAPI", package: "haapi-gateway"), .product(name: "HAAPIGateway", package: "haapi-gateway"),
            ],
            swiftSettings: fuzzSettings,
            linkerSettings: fuzzLinking
        ),
        .executableTarget(
            name: "FuzzProxyRequest",
            dependencies: [
                "FuzzDriver", .product(name: "HAAPIGateway", package: "haapi-gateway"), .product(name: "HAAPIHostTools", package: "haapi-gateway"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            swiftSettings: fuzzSettings,
            linkerSettings: fuzzLinking
        ),
        .executableTarget(
            name: "FuzzGitCredentialInput",
            dependencies: [
                "FuzzDriver", .product(name: "HAAPIGateway", package: "haapi-gateway"), .product(name: "HAAPIHostTools", package: "haapi-gateway"),
            ],
            swiftSettings: fuzzSettings,
            linkerSettings: fuzzLinking
        ),
        .executableTarget(
            name: "FuzzDockerCredential",
            dependencies: ["FuzzDriver", .product(name: "HAAPIHostTools", package: "haapi-gateway")],
            swiftSettings: fuzzSettings,
            linkerSettings: fuzzLinking
        ),
        .executableTarget(
            name: "FuzzKubernetesExecInfo",
            dependencies: ["FuzzDriver", .product(name: "HAAPIHostTools", package: "haapi-gateway")],
            swiftSettings: fuzzSettings,
            linkerSettings: fuzzLinking
        ),
        .executableTarget(
            name: "FuzzTokenFile",
            dependencies: [
                "FuzzDriver", .product(name: "HAAPI", package: "haapi-gateway"), .product(name: "HAAPIHostTools", package: "haapi-gateway"),
            ],
            swiftSettings: fuzzSettings,
            linkerSettings: fuzzLinking
        ),
    ]
)
