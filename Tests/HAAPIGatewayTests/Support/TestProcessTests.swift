import Foundation
import Testing

@testable import GatewayTestSupport

/// The test process's own environment, set before `main` (``TestProcess``).
@Suite("The test process")
struct TestProcessTests {
    @Test("Swift Testing's capture of a backtrace for every thrown error is off, as the process's constructor set it")
    func errorBacktracesAreOff() {
        #expect(TestProcess.errorBacktracesOff)
    }

    @Test(
        "every temporary directory of the run, the tests' and their programs', is under the process's own scratch root, sticky and writable by all as /tmp is"
    )
    func temporaryFilesGoUnderTheScratchRoot() throws {
        let root = try #require(TestProcess.scratchRoot)
        #expect(URL(fileURLWithPath: root).lastPathComponent == "hgt-\(getpid())")
        #expect(ProcessInfo.processInfo.environment["TMPDIR"] == root, "the programs the tests start inherit it")
        #expect(FileManager.default.temporaryDirectory.standardizedFileURL.path == URL(fileURLWithPath: root).standardizedFileURL.path)
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: root)[.posixPermissions] as? Int)
        #expect(mode & 0o1777 == 0o1777)
    }

    @Test("a program started with an environment of its own still puts its temporary files under the scratch root", .startsPrograms())
    func programsStartedWithTheirOwnEnvironmentInheritTheScratchRoot() async throws {
        let root = try #require(TestProcess.scratchRoot)
        let result = try await runProgram(URL(fileURLWithPath: "/usr/bin/env"), [], environment: ["ONLY": "this"])
        #expect(result.status == 0)
        #expect(result.standardOutput.split(separator: "\n").contains("TMPDIR=\(root)"), "env printed: \(result.standardOutput)")
    }

    @Test("every Python module an optional suite asks for is one the process looks for before main")
    func everyPythonModuleAskedForIsLookedFor() throws {
        let tools = try String(contentsOf: Repository.root.appendingPathComponent("Tests/GatewayTestSupport/TestTools.swift"), encoding: .utf8)
        let constructor = try String(
            contentsOf: Repository.root.appendingPathComponent("Tests/TestProcessEnvironment/TestProcessEnvironment.c"),
            encoding: .utf8
        )
        let asked = Set(tools.matches(of: /pythonHas\("([a-z_0-9]+)"\)/).map { String($0.output.1) })
        let list = try #require(constructor.firstMatch(of: /python_modules\[\] = \{([^}]*)\}/)).output.1
        let lookedFor = Set(list.matches(of: /"([a-z_0-9]+)"/).map { String($0.output.1) })
        #expect(!asked.isEmpty)
        #expect(asked.subtracting(lookedFor).isEmpty, "asked for but never looked for: \(asked.subtracting(lookedFor).sorted())")
    }

    @Test("a test that starts a program without a share of the machine records an issue naming the program")
    func aProgramStartedWithoutAShareIsAnIssue() async throws {
        try await withKnownIssue("SpawnedProcess's check, which this test provokes") {
            let process = try SpawnedProcess(executable: URL(fileURLWithPath: "/bin/true"), arguments: [], environment: [:])
            await process.waitForExit()
        } matching: { issue in
            "\(issue)".contains("starts true without a share of the machine")
        }
    }
}
