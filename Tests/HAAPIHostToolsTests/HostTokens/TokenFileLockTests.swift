import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway
@testable import HAAPIHostTools

/// The lock beside a token file: one holder at a time, and a holder that dies never blocks (the kernel releases an
/// `flock` with its process), held here by util-linux's `flock(1)`, a program this project did not write.
@Suite("The token file's lock", .startsPrograms())
struct TokenFileLockTests {
    /// Starts `flock -o LOCK sleep 30` (the lock held by flock alone) and waits until it holds the lock.
    private static func holder(of tokenPath: String) async throws -> SpawnedProcess {
        let process = try SpawnedProcess(
            executable: URL(fileURLWithPath: "/usr/bin/flock"),
            arguments: ["-o", TokenFileLock.path(for: tokenPath), "sleep", "30"],
            environment: ["PATH": "/usr/bin:/bin"]
        )
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let descriptor = open(TokenFileLock.path(for: tokenPath), O_RDWR)
            if descriptor >= 0 {
                defer { close(descriptor) }
                if flock(descriptor, LOCK_EX | LOCK_NB) != 0 { return process }
                flock(descriptor, LOCK_UN)
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        process.terminate()
        throw CancellationError()
    }

    @Test("held by a live process it is waited for, and a holder killed with SIGKILL releases it at once")
    func aDeadHolderNeverBlocks() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lock-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let tokenPath = directory.appendingPathComponent("tokens.json").path
        #expect(try await TokenFileLock.withLock(of: tokenPath) { true }, "free: taken at once")
        let mode = (try FileManager.default.attributesOfItem(atPath: TokenFileLock.path(for: tokenPath))[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode.map { $0 & 0o077 } == 0, "the lock file is the owner's alone")
        let holder = try await Self.holder(of: tokenPath)
        defer { holder.signal(SIGKILL) }

        await #expect(throws: GatewayError.self, "a live holder is waited for, up to the time limit") {
            try await TokenFileLock.withLock(of: tokenPath, timeout: .milliseconds(300)) {}
        }
        holder.signal(SIGKILL)
        await holder.waitForExit()
        let ran = try await TokenFileLock.withLock(of: tokenPath, timeout: .seconds(10)) { true }
        #expect(ran, "the dead holder's lock was released by the kernel")
    }
}
