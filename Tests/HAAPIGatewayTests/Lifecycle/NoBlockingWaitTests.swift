import Foundation
import Testing

@testable import GatewayTestSupport

/// Swift's cooperative pool has as many threads as the machine has processors: two on CI's machine. A call that blocks
/// its thread there (a sleep, a wait for a process, a read to a pipe's end, a semaphore) takes half the pool from every
/// test, server and client of the process until it returns, and under the suite's load that made unrelated time-bound
/// tests fail. Such a call is allowed only where it cannot run on the pool: on a thread or dispatch queue of its own, in
/// a `deinit` that hands it to one, or in a synchronous program's `main`; the line says so with `// off the pool:` and
/// the reason.
@Suite("No blocking wait on Swift's pool")
struct NoBlockingWaitTests {
    /// What blocks the calling thread.
    static let blocking = [
        "usleep(", "Thread.sleep(", "waitUntilExit()", "readDataToEndOfFile()", "DispatchSemaphore", "DispatchGroup", ".wait()",
        "waitpid(",
    ]

    /// The places that block on purpose, each on a line saying why it is off the pool.
    static let marker = "// off the pool:"

    /// `await x.wait()` suspends; `waitpid(…, WNOHANG)` returns at once.
    static func waitsWithoutBlocking(_ code: String, _ call: String) -> Bool {
        (call == ".wait()" && code.contains("await ")) || (call == "waitpid(" && code.contains("WNOHANG"))
    }

    @Test("no blocking call in Sources or Tests but on a line that says why it is off the pool")
    func noBlockingWait() throws {
        var found: [String] = []
        for folder in ["Sources", "Tests"] {
            for (path, text) in try Repository.swiftSources(under: folder) where !path.hasSuffix("NoBlockingWaitTests.swift") {
                for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    let code = line.trimmingCharacters(in: .whitespaces)
                    guard !code.hasPrefix("//"), !line.contains(Self.marker) else { continue }
                    let callPart = code.components(separatedBy: "//").first ?? code
                    for call in Self.blocking where callPart.contains(call) && !Self.waitsWithoutBlocking(callPart, call) {
                        found.append("\(path.replacingOccurrences(of: Repository.root.path + "/", with: "")):\(number + 1): \(call) \(code)")
                    }
                }
            }
        }
        #expect(found.isEmpty, "blocking calls that may run on Swift's pool:\n\(found.joined(separator: "\n"))")
    }

    @Test("the lint finds a blocking call added without the marker")
    func lintFindsABlockingCall() {
        let line = "        process.waitUntilExit()"
        #expect(Self.blocking.contains { line.contains($0) && !Self.waitsWithoutBlocking(line, $0) })
        #expect(!line.contains(Self.marker))
        #expect(Self.waitsWithoutBlocking("await gate.wait()", ".wait()"))
        #expect(!Self.waitsWithoutBlocking("future.wait()", ".wait()"))
    }
}
