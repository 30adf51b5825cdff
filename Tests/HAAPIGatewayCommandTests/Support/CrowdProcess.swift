import Foundation

@testable import GatewayTestSupport

/// A crowd of idle TCP connections held by a process of its own (Python), not by the test process, which would then hold
/// more than 1 024 descriptors while other tests start processes. It opens `count` connections from `source` to 127.0.0.1:`port`, prints `ready`, then every
/// 200 ms `open N` (how many the gateway has not closed), until its standard input closes.
final class CrowdProcess: @unchecked Sendable {
    private let process: SpawnedProcess
    private let input = Pipe()
    private let collected = CollectedOutput()

    private static let script = #"""
        import resource, select, socket, sys
        port, count, source = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        if soft < count + 64:
            resource.setrlimit(resource.RLIMIT_NOFILE, (count + 64 if hard == resource.RLIM_INFINITY else min(count + 64, hard), hard))
        crowd = []
        for _ in range(count):
            connection = socket.socket()
            connection.bind((source, 0))
            connection.connect(("127.0.0.1", port))
            crowd.append(connection)
        print("ready", flush=True)
        while True:
            readable, _, _ = select.select([sys.stdin], [], [], 0.2)
            if readable and not sys.stdin.readline():
                break
            still = 0
            for connection in crowd:
                try:
                    still += connection.recv(1, socket.MSG_PEEK | socket.MSG_DONTWAIT) != b""
                except BlockingIOError:
                    still += 1
                except OSError:
                    pass
            print("open", still, flush=True)
        """#

    /// Starts the process and waits until the whole crowd is connected.
    init(_ count: Int, to port: Int, from source: String) async throws {
        let (output, error) = collected.pipes()
        process = try SpawnedProcess(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            arguments: ["python3", "-c", Self.script, String(port), String(count), source],
            environment: ProcessInfo.processInfo.environment,
            standardInput: input,
            standardOutput: output,
            standardError: error
        )
        _ = try await collected.waitFor("(ready)")
    }

    /// How many of the crowd's connections the gateway had not closed at the last report (nil before the first).
    var stillOpen: Int? {
        collected.text(error: false).split(separator: "\n").last { $0.hasPrefix("open ") }.flatMap { Int($0.dropFirst(5)) }
    }

    /// Closes every connection and ends the process.
    func disperse() async {
        try? input.fileHandleForWriting.close()
        // Waited for without blocking one of the few threads the tests beside this one share.
        while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}
