import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A PostgreSQL server of the tests' own: `initdb` into a fresh temporary directory, `postgres` on a free loopback port
/// with its Unix socket in that directory, stopped and deleted by ``stop()``.
///
/// - The binaries are looked up in Debian's `/usr/lib/postgresql/<version>/bin` (newest first), then on `PATH`.
/// - PostgreSQL refuses to run as root. As root (CI's `.ci/run`), the server runs as the `postgres` user Debian's
///   package creates (else `nobody`) through `runuser`, and the directory is given to that user.
/// - The superuser `gateway` signs in with a password over TCP (SCRAM, as the gateway does) and without one over the
///   socket (what the tests' `psql` and `pg_dump` use).
/// - The server is started by a small shell that stops it and deletes the directory when its standard input closes:
///   when ``stop()`` closes it, and also when the test process dies without stopping it (a crash, a kill).
public final class PostgresTestServer: @unchecked Sendable {
    /// The server a suite scoped with it (`PostgresServerTrait`) shares with its tests.
    @TaskLocal public static var current: PostgresTestServer?

    /// Where PostgreSQL's programs are.
    public struct Binaries: Sendable {
        let initdb: URL
        let postgres: URL
        let psql: URL
        let pgDump: URL
    }

    /// The superuser's name.
    public let user = "gateway"
    /// The superuser's password (random per server).
    public let password: String
    /// The TCP port on 127.0.0.1.
    public let port: Int
    /// The directory holding the data directory and the socket.
    public let directory: URL
    let binaries: Binaries
    private let process: SpawnedProcess
    private let control: Pipe
    private let output: CollectedOutput
    private let exits: AsyncStream<Int32>
    private let lock = NSLock()
    private var stopped = false

    /// PostgreSQL's programs, when all of initdb, postgres, psql and pg_dump are found.
    public static let binaries: Binaries? = {
        var directories: [URL] = []
        let debian = URL(fileURLWithPath: "/usr/lib/postgresql")
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: debian.path)) ?? []
        for version in versions.sorted(by: { (Int($0) ?? 0) > (Int($1) ?? 0) }) {
            directories.append(debian.appendingPathComponent(version).appendingPathComponent("bin"))
        }
        for entry in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") {
            directories.append(URL(fileURLWithPath: String(entry)))
        }
        func find(_ name: String) -> URL? {
            directories.lazy.map { $0.appendingPathComponent(name) }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        }
        guard let initdb = find("initdb"), let postgres = find("postgres"), let psql = find("psql"), let pgDump = find("pg_dump") else { return nil }
        return Binaries(initdb: initdb, postgres: postgres, psql: psql, pgDump: pgDump)
    }()

    /// The user the server runs as when the tests run as root, and the `runuser` that switches to it.
    private static var unprivileged: (name: String, uid: uid_t, gid: gid_t)? {
        guard getuid() == 0 else { return nil }
        for name in ["postgres", "nobody"] {
            if let entry = getpwnam(name) { return (name, entry.pointee.pw_uid, entry.pointee.pw_gid) }
        }
        return nil
    }

    private init(
        password: String,
        port: Int,
        directory: URL,
        binaries: Binaries,
        process: SpawnedProcess,
        control: Pipe,
        output: CollectedOutput,
        exits: AsyncStream<Int32>
    ) {
        self.password = password
        self.port = port
        self.directory = directory
        self.binaries = binaries
        self.process = process
        self.control = control
        self.output = output
        self.exits = exits
    }

    /// Initialises a cluster and starts a server on a free port, waiting until it accepts connections.
    public static func start() async throws -> PostgresTestServer {
        guard let binaries else { throw failure("PostgreSQL's initdb, postgres, psql and pg_dump are not installed") }
        // A port taken between choosing and binding makes postgres exit (and its directory go): start again.
        var lastError = ""
        for _ in 0..<3 {
            let directory = try await initialise(binaries)
            let server = try launch(binaries: binaries, directory: directory.url, password: directory.password, port: try freePort())
            let ready: Bool
            do {
                ready = try await server.waitUntilReady()
            } catch {
                await server.stop()
                throw error
            }
            if ready { return server }
            lastError = server.output.text(error: true) + server.output.text(error: false)
            await server.stop()
        }
        throw failure("postgres did not start: \(lastError)")
    }

    /// A fresh directory with a cluster in `data`, owned by the server's user, and the superuser's password.
    private static func initialise(_ binaries: Binaries) async throws -> (url: URL, password: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("haapi-gateway-postgres-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let password = UUID().uuidString
        let passwordFile = directory.appendingPathComponent("password")
        try Data((password + "\n").utf8).write(to: passwordFile)
        if let user = unprivileged {
            for path in [directory.path, passwordFile.path] where chown(path, user.uid, user.gid) != 0 {
                throw failure("cannot give \(path) to \(user.name)")
            }
        }
        let initialised = try await runAsServerUser(
            binaries.initdb,
            [
                "-D", directory.appendingPathComponent("data").path, "-U", "gateway", "--auth-local=trust", "--auth-host=scram-sha-256",
                "--pwfile=\(passwordFile.path)", "-E", "UTF8", "--no-locale", "--no-sync", "--no-instructions",
            ]
        )
        guard initialised.status == 0 else {
            try? FileManager.default.removeItem(at: directory)
            throw failure("initdb failed (\(initialised.status)): \(initialised.standardError)")
        }
        return (directory, password)
    }

    /// Stops the server (fast shutdown) and deletes its directory; waits until both are done. Safe to call twice.
    public func stop() async {
        let first = lock.withLock {
            defer { stopped = true }
            return !stopped
        }
        guard first else { return }
        try? control.fileHandleForWriting.close()
        for await _ in exits {}
        try? FileManager.default.removeItem(at: directory)
    }

    /// A `postgres://` URL for the superuser over TCP, to `database`.
    public func url(database: String, user: String? = nil, password: String? = nil) -> String {
        "postgres://\(user ?? self.user):\(password ?? self.password)@127.0.0.1:\(port)/\(database)?sslmode=disable"
    }

    /// Creates an empty database with a fresh name and returns the name.
    public func createDatabase() async throws -> String {
        let name = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        try await psql("CREATE DATABASE \(name)", database: "postgres")
        return name
    }

    /// Runs SQL with `psql` as the superuser over the socket, stopping at the first error.
    /// - Returns: What it printed (unaligned, tuples only).
    @discardableResult
    public func psql(_ sql: String, database: String) async throws -> String {
        let result = try await runProgram(
            binaries.psql,
            ["-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", directory.path, "-p", "\(port)", "-U", user, "-d", database, "-c", sql]
        )
        guard result.status == 0 else { throw Self.failure("psql failed (\(result.status)): \(result.standardError)") }
        return result.standardOutput
    }

    /// Runs a file of SQL with `psql` as the superuser over the socket, in one transaction.
    public func psql(file: URL, database: String) async throws {
        let result = try await runProgram(
            binaries.psql,
            ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-1", "-h", directory.path, "-p", "\(port)", "-U", user, "-d", database, "-f", file.path]
        )
        guard result.status == 0 else { throw Self.failure("psql -f failed (\(result.status)): \(result.standardError)") }
    }

    /// Stops (SIGSTOP) or resumes (SIGCONT) the server and every process of it: stopped, it accepts connections (the
    /// kernel does) and answers nothing, as a database on a host that hangs.
    public func freeze(_ frozen: Bool) throws {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("data/postmaster.pid"), encoding: .utf8),
            let line = text.split(separator: "\n").first, let postmaster = pid_t(line.trimmingCharacters(in: .whitespaces))
        else { throw Self.failure("no postmaster.pid to freeze") }
        var processes = [postmaster]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After the command's closing parenthesis: the state, then the parent's pid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 1, pid_t(fields[1]) == postmaster { processes.append(pid) }
        }
        for pid in processes { kill(pid, frozen ? SIGSTOP : SIGCONT) }
    }

    /// `pg_dump` of a whole database (schema and data, as plain SQL).
    public func dump(database: String) async throws -> String {
        let result = try await runProgram(binaries.pgDump, ["-h", directory.path, "-p", "\(port)", "-U", user, "-d", database])
        guard result.status == 0 else { throw Self.failure("pg_dump failed (\(result.status)): \(result.standardError)") }
        return result.standardOutput
    }

    // MARK: - Starting

    private static func launch(binaries: Binaries, directory: URL, password: String, port: Int) throws -> PostgresTestServer {
        // Fast shutdown (SIGINT) when standard input closes, then the directory goes. The shell waits for the server's
        // postmaster.pid to go (the server removes it when it has stopped) rather than with `wait`, bounded to 30 s. (A
        // background list's standard input is /dev/null, so `cat` runs in the foreground.) Logs go to standard error.
        let script = """
            "$0" -D "$1/data" -k "$1" -h 127.0.0.1 -p "$2" -c fsync=off -c synchronous_commit=off -c full_page_writes=off \
                -c max_connections=300 -c log_min_messages=warning </dev/null &
            pid=$!
            cat >/dev/null
            kill -INT "$pid" 2>/dev/null
            waited=0
            while [ -e "$1/data/postmaster.pid" ] && [ "$waited" -lt 300 ]; do sleep 0.1; waited=$((waited + 1)); done
            [ -e "$1/data/postmaster.pid" ] && kill -KILL "$pid" 2>/dev/null
            rm -rf "$1"
            """
        let arguments = ["-c", script, binaries.postgres.path, directory.path, "\(port)"]
        let control = Pipe()
        let output = CollectedOutput()
        let (standardOutput, standardError) = output.pipes()
        let process = try SpawnedProcess(
            executable: URL(fileURLWithPath: unprivileged == nil ? "/bin/sh" : "/usr/sbin/runuser"),
            arguments: unprivileged.map { ["-u", $0.name, "--", "/bin/sh"] + arguments } ?? arguments,
            environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"],
            standardInput: control,
            standardOutput: standardOutput,
            standardError: standardError
        )
        let (exits, continuation) = AsyncStream.makeStream(of: Int32.self)
        Task {
            continuation.yield(await process.waitForExit())
            continuation.finish()
        }
        return PostgresTestServer(
            password: password,
            port: port,
            directory: directory,
            binaries: binaries,
            process: process,
            control: control,
            output: output,
            exits: exits
        )
    }

    /// Waits until `postmaster.pid` says the server is ready; false when the process ended first.
    private func waitUntilReady() async throws -> Bool {
        let pidFile = directory.appendingPathComponent("data/postmaster.pid")
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            // A port taken since it was chosen: "could not bind", then a FATAL line.
            guard process.isRunning, !output.text(error: true).contains("FATAL") else { return false }
            if let text = try? String(contentsOf: pidFile, encoding: .utf8),
                text.split(separator: "\n").contains(where: { $0.trimmingCharacters(in: .whitespaces) == "ready" })
            {
                return true
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw Self.failure("postgres was not ready within 60 s: \(output.text(error: true))")
    }

    private static func runAsServerUser(_ program: URL, _ arguments: [String]) async throws -> ProcessResult {
        if let user = unprivileged {
            return try await runProgram(URL(fileURLWithPath: "/usr/sbin/runuser"), ["-u", user.name, "--", program.path] + arguments)
        }
        return try await runProgram(program, arguments)
    }

    /// A port nothing listens on now (bound to 127.0.0.1:0 and closed).
    private static func freePort() throws -> Int {
        #if canImport(Glibc)
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw failure("socket() failed") }
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else { throw failure("bind() failed") }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { throw failure("getsockname() failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func failure(_ message: String) -> any Error {
        CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: message])
    }
}
