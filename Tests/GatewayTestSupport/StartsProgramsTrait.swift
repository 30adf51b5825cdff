import Foundation
import Testing

/// Marks a suite, or a test, as one that starts other programs: it holds its units of the ``MachineShare`` from its
/// start to its end, and its tests (a parameterized test's cases) run one at a time inside it, as `.serialized` runs
/// them. A suite or test inside another that holds a share runs in that one's. Any issue recorded inside says what the
/// machine was doing (``MachineLoad``), so that a failure of a starved machine says so at once.
///
/// The share is held for the whole suite, not test by test: it is waited for before any of its tests takes one of the
/// places Swift Testing gives test cases (`TestProcessEnvironment` bounds them), so that waiting suites leave those
/// places to the tests that run in the test process alone, and a suite once started runs to its end instead of waiting
/// in line again before each of its tests.
///
/// ``SpawnedProcess`` records an issue when a test starts a program without one: a heavy test added later cannot go
/// around the bound.
public struct StartsProgramsTrait: TestTrait, SuiteTrait, TestScoping {
    /// What the test starts, in the machine's shares.
    public enum Weight: Sendable {
        /// Gateways, demo servers, PostgreSQL, Python, git, a Java validator: one share.
        case programs
        /// Chromium with its driver and the Nu validator beside a gateway, or a script that loads several gateways and a
        /// database (the soak, the benchmark): every share but one, so that one other suite at most runs beside it.
        case heavy

        var units: Int {
            switch self {
            case .programs: 1
            case .heavy: max(1, MachineShare.shared.capacity - 1)
            }
        }
    }

    let weight: Weight

    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        self
    }

    public func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        guard MachineShare.held == nil else {
            try await Self.oneAtATime(test, testCase, function)
            return
        }
        try await MachineShare.shared.holding(weight.units, for: test.displayName ?? test.name) {
            try await Self.describingTheMachine.provideScope(for: test, testCase: testCase) {
                try await Self.oneAtATime(test, testCase, function)
            }
        }
    }

    /// A suite's tests, or a test function's cases, one at a time; a test case as it is.
    private static func oneAtATime(_ test: Test, _ testCase: Test.Case?, _ function: @Sendable () async throws -> Void) async throws {
        guard testCase == nil else { return try await function() }
        try await ParallelizationTrait.serialized.provideScope(for: test, testCase: nil, performing: function)
    }

    /// Adds the machine's state to every issue the test records, as it was when the issue was recorded.
    private static let describingTheMachine: IssueHandlingTrait = .compactMapIssues { issue in
        var issue = issue
        issue.comments.append("machine: \(MachineLoad.description)")
        return issue
    }
}

extension Trait where Self == StartsProgramsTrait {
    /// The suite, or the test, starts other programs: it holds a share of the machine from its start to its end, its
    /// tests one at a time inside it.
    public static func startsPrograms(_ weight: StartsProgramsTrait.Weight = .programs) -> Self {
        StartsProgramsTrait(weight: weight)
    }
}
