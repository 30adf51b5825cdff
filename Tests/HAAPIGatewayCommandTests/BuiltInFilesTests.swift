import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// What the `BuiltInFiles` plugin builds into the program: the templates (so that the program alone, with no file beside
/// it, serves its pages) and the revision `--version` names.
@Suite(.startsPrograms()) struct BuiltInFilesTests {
    @Test("the built-in templates are the repository's templates/, file for file and byte for byte")
    func theBuiltInTemplatesAreTheRepositorysOwn() throws {
        let repository = try TemplateFiles.reading(directory: Repository.templates)
        #expect(TemplateFiles.builtIn.files.keys.sorted() == repository.files.keys.sorted())
        for (path, data) in repository.files { #expect(TemplateFiles.builtIn.files[path] == data, "\(path) differs") }
        #expect(
            repository.files["assets/gateway.css"] != nil && repository.files["messages/sv.json"] != nil && repository.files["step.mustache"] != nil
        )
    }

    @Test(
        "the program alone in an empty directory (no templates/ beside it, above it or in its working directory) signs a person in with its built-in templates and serves their assets"
    )
    func theProgramAloneServesItsBuiltInPages() async throws {
        let directory = try Repository.temporaryDirectory()
        let program = directory.appendingPathComponent("haapi-gateway")
        // A hard link: the file running is in the empty directory (a copy of 150 MB would do the same, slower).
        if link(Repository.executable.path, program.path) != 0 { try FileManager.default.copyItem(at: Repository.executable, to: program) }
        let gateway = try RunningGateway(
            program: program,
            ["serve", "--port", "0"],
            environment: ["PATH": "/usr/bin:/bin", "HAAPI_GATEWAY_SERVER_DRAIN_SECONDS": "0"],
            directory: directory
        )
        let base = try await gateway.waitForOutput(#"open (http://127\.0\.0\.1:\d+)/ in a browser"#)
        try await TestBrowser.using(base) { browser in
            let done = try await browser.signInAsDemo()
            #expect(done.html.contains("You are signed in"))
            let stylesheet = try await browser.get("/assets/gateway.css")
            #expect(stylesheet.status == 200)
            #expect(stylesheet.html == (try String(contentsOf: Repository.templates.appendingPathComponent("assets/gateway.css"), encoding: .utf8)))
            browser.prefer(languages: "sv")
            let swedish = try await browser.get("/")
            #expect(swedish.html.contains("lang=\"sv\""), "the Swedish catalogue is built in too")
        }
        gateway.signal(SIGTERM)
        #expect(try await gateway.waitForExit(timeout: .seconds(30)) == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["haapi-gateway"])
    }

    @Test("--version names the VERSION file's version and the commit the checkout was at when it was built")
    func versionNamesTheCommit() async throws {
        let result = try await runProgram(Repository.executable, ["--version"])
        #expect(result.status == 0)
        let version = try String(contentsOf: Repository.root.appendingPathComponent("VERSION"), encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(result.standardOutput.hasPrefix("haapi-gateway \(version) (commit "), "\(result.standardOutput)")
        let head = try await runProgram(URL(fileURLWithPath: "/usr/bin/env"), ["git", "-C", Repository.root.path, "rev-parse", "HEAD"])
        if head.status == 0 {
            let commit = head.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(result.standardOutput.contains("commit \(commit)"), "\(result.standardOutput) against HEAD \(commit)")
        }
        #expect(GatewayVersion.current.description == result.standardOutput.dropFirst("haapi-gateway ".count).trimmingCharacters(in: .newlines))
    }
}
