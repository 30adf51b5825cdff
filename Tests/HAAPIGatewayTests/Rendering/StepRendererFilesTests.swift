import Foundation
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// What `render --output DIR` writes (``StepRenderer/write(_:to:)``) and what `check-config` prints for a valid file
/// (``GatewayConfiguration/checkReport(file:)``).
@Suite("What render and check-config write")
struct StepRendererFilesTests {
    @Test("render --output: index.html and every asset, and one line saying where")
    func renderFiles() throws {
        let configuration = GatewayConfiguration()
        let renderer = try StepRenderer(templates: configuration.templates, theme: configuration.theme)
        let directory = try Repository.temporaryDirectory().appendingPathComponent("page")
        let line = try renderer.write("<p>page</p>", to: directory)
        #expect(try String(contentsOf: directory.appendingPathComponent("index.html"), encoding: .utf8) == "<p>page</p>")
        let assets = try FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("assets").path)
        #expect(Set(assets) == Set(renderer.assetFiles.keys))
        #expect(!assets.isEmpty)
        #expect(
            line
                == "wrote \(directory.appendingPathComponent("index.html").path) and \(assets.count) files in \(directory.appendingPathComponent("assets").path)"
        )
    }

    @Test("check-config: OK, the effective configuration indented, then the settings changed from the defaults")
    func checkReport() throws {
        let defaults = try GatewayConfiguration.load(file: nil, environment: [:])
        let plain = defaults.checkReport(file: "/etc/g.yaml")
        #expect(plain.hasPrefix("/etc/g.yaml: configuration OK\n  "))
        #expect(!plain.contains("settings changed from the defaults"))
        let changed = try GatewayConfiguration.load(file: nil, environment: [:], flags: [(.serverPort, "--port", .scalar("9000"))])
        let report = changed.checkReport(file: "/etc/g.yaml")
        #expect(report.contains("\n  settings changed from the defaults:\n    "))
        #expect(!report.hasSuffix("\n"))
    }
}
