import Foundation
import Testing

extension MachineShare {
    /// Clients that ask a server the test already runs and end at once (PostgreSQL's `psql` and `pg_dump` against the
    /// suite's server): the work is the server's, and they need no share of their own.
    static let briefClients: Set<String> = ["psql", "pg_dump"]

    /// Records an issue when a running test case starts a program without holding a share (``StartsProgramsTrait``).
    static func expectHeld(starting executable: URL, _ arguments: [String], sourceLocation: SourceLocation) {
        guard held == nil, Test.Case.current != nil, !briefClients.contains(executable.lastPathComponent) else { return }
        let program = executable.lastPathComponent == "env" ? arguments.first ?? "env" : executable.lastPathComponent
        Issue.record(
            "this test starts \(program) without a share of the machine: give it, or its suite, the trait .startsPrograms() (StartsProgramsTrait)",
            sourceLocation: sourceLocation
        )
    }
}
