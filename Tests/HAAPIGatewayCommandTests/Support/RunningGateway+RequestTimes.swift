import Foundation

extension RunningGateway {
    /// The gateway's own times for its requests of `method` (to `path`, or to any path), in milliseconds, in order: the
    /// `milliseconds` of its request log lines (``RequestLogMiddleware``), measured inside the gateway from a request's
    /// arrival at its handlers to its answer. Unlike a time taken by the test, it does not count how long the test's own
    /// process waited to be scheduled on a loaded machine.
    func requestMilliseconds(method: String, path: String? = nil) -> [Double] {
        standardError.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasSuffix("] request"), line.contains(" method=\(method) "), path.map({ line.contains(" path=\($0) ") }) ?? true,
                let range = line.range(of: #"milliseconds=[0-9.]+"#, options: .regularExpression)
            else { return nil }
            return Double(line[range].dropFirst("milliseconds=".count))
        }
    }

    /// Makes a request with `send` and returns its answer with the gateway's own time for it: the one request line of
    /// `method` (to `path`) logged after those there were before, waited for.
    func timed<Answer>(
        _ method: String,
        _ path: String? = nil,
        timeout: Duration = .seconds(30),
        _ send: () async throws -> Answer
    ) async throws -> (answer: Answer, milliseconds: Double) {
        let before = requestMilliseconds(method: method, path: path).count
        let answer = try await send()
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let times = requestMilliseconds(method: method, path: path)
            if times.count > before { return (answer, times[before]) }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw RequestTimeMissing(method: method, path: path)
    }
}

/// The gateway logged no line for a request the test made.
struct RequestTimeMissing: Error, CustomStringConvertible {
    let method: String
    let path: String?
    var description: String { "the gateway logged no request line for \(method) \(path ?? "(any path)")" }
}
