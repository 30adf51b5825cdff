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

    /// The blocking calls of `text` on lines that do not say why they are off the pool, as "line: call code".
    static func blockingCalls(in text: String) -> [String] {
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//"), !line.contains(marker) else { continue }
            let callPart = code.components(separatedBy: "//").first ?? code
            for call in blocking where callPart.contains(call) && !waitsWithoutBlocking(callPart, call) {
                found.append("\(number + 1): \(call) \(code)")
            }
        }
        return found
    }

    @Test("no blocking call in Sources or Tests but on a line that says why it is off the pool")
    func noBlockingWait() throws {
        var found: [String] = []
        for folder in ["Sources", "Tests"] {
            for (path, text) in try Repository.swiftSources(under: folder) where !path.hasSuffix("NoBlockingWaitTests.swift") {
                let relative = path.replacingOccurrences(of: Repository.root.path + "/", with: "")
                found += Self.blockingCalls(in: text).map { "\(relative):\($0)" }
            }
        }
        #expect(found.isEmpty, "blocking calls that may run on Swift's pool:\n\(found.joined(separator: "\n"))")
    }

    @Test("the lint finds a blocking call added without the marker, and only that one")
    func lintFindsABlockingCall() {
        let source = """
            func f() async {
                process.waitUntilExit()
                process.waitUntilExit()  \(Self.marker) a thread of its own
                await gate.wait()
                let reaped = waitpid(pid, &raw, WNOHANG)
                // usleep(10) in a comment
                usleep(10_000)
            }
            """
        #expect(Self.blockingCalls(in: source) == ["2: waitUntilExit() process.waitUntilExit()", "7: usleep( usleep(10_000)"])
    }
}
