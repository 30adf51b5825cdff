import Benchmark
import Foundation
import HAAPI
import HAAPIGateway

/// The gateway's per-request work, one operation at a time: decoding HAAPI steps, signing a DPoP proof, rendering a
/// form page and a selector page, parsing a form post, and finding a session among many.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .throughput],
        timeUnits: .microseconds,
        warmupIterations: 100,
        maxDuration: .seconds(3),
        maxIterations: 100_000
    )

    let typicalStep = BenchmarkInputs.sample("username-password-form.json")
    let largestStep = BenchmarkInputs.largestSample()

    Benchmark("Decode typical step (username-password-form, \(typicalStep.count) B)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try HAAPIResponse.decode(status: 200, contentType: "application/vnd.auth+json", body: typicalStep))
        }
    }

    Benchmark("Decode largest step (\(BenchmarkInputs.largestSampleName), \(largestStep.count) B)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try HAAPIResponse.decode(status: 200, contentType: "application/vnd.auth+json", body: largestStep))
        }
    }

    Benchmark("Create DPoP proof (ES256, ath and nonce)") { benchmark in
        let key = DPoPKey()
        let url = URL(string: "https://idp.example.com/dev/authn/authenticate?x=1")!
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try DPoPProof.make(key: key, method: "POST", url: url, accessToken: "haapi-access-token", nonce: "server-nonce"))
        }
    }

    Benchmark("Render form page (username-password-form)") { benchmark in
        let renderer = try StepRenderer(templates: TemplateSettings(directory: BenchmarkInputs.templates))
        let step = try BenchmarkInputs.representation("username-password-form.json")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(renderer.render(step, locale: "en"))
        }
    }

    Benchmark("Render selector page (authenticator-selector)") { benchmark in
        let renderer = try StepRenderer(templates: TemplateSettings(directory: BenchmarkInputs.templates))
        let step = try BenchmarkInputs.representation("authenticator-selector.json")
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(renderer.render(step, locale: "en"))
        }
    }

    Benchmark("Parse form post (CSRF token, user name, password)") { benchmark in
        let body = "_csrf=pQ3xv1m8Zk2Yt7Wn0aBcDeFgHiJkLmNoPqRsTuVwXyZ&userName=demo%40example.com&password=s3cr%C3%A9t+phrase"
        for _ in benchmark.scaledIterations {
            blackHole(FormBody(parsing: body))
        }
    }

    // A thousand look-ups per sample, and the store freed outside the measurement (freeing its 10 000 sessions is not
    // part of a look-up).
    Benchmark("Session lookup (one of 10 000)", configuration: .init(scalingFactor: .kilo)) { benchmark in
        let store = MemorySessionStore<Int>(settings: SessionSettings(maximumSessions: 10_000))
        var ids: [String] = []
        for number in 0..<10_000 { if let id = await store.insert(number) { ids.append(id) } }
        benchmark.startMeasurement()
        for iteration in benchmark.scaledIterations {
            blackHole(await store.session(id: ids[iteration % ids.count]))
        }
        benchmark.stopMeasurement()
        withExtendedLifetime((store, ids)) {}
    }
}
