// swift-tools-version: 6.1
import PackageDescription

// Micro benchmarks of the gateway (package-benchmark), kept out of the root package so that its build and tests never
// build the benchmark dependency. Run from the repository root:
//   swift package --package-path Benchmarks benchmark
let package = Package(
    name: "haapi-gateway-benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "haapi-gateway", path: ".."),
        .package(url: "https://github.com/ordo-one/package-benchmark.git", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "HAAPIGatewayBenchmarks",
            dependencies: [
                .product(name: "Benchmark", package: "package-benchmark"),
                .product(name: "HAAPI", package: "haapi-gateway"),
                .product(name: "HAAPIGateway", package: "haapi-gateway"),
            ],
            path: "Benchmarks/HAAPIGatewayBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "package-benchmark")]
        )
    ]
)
