import Foundation
import Logging
import Synchronization
import Testing

@testable import GatewayTestSupport
@testable import HAAPIGateway

/// ``ServeAnnouncement``: where to open the gateway, as a banner for people or as one log line in JSON mode.
@Suite("What serve announces")
struct ServeAnnouncementTests {
    let url = URL(string: "http://127.0.0.1:8080")!

    @Test("as text, a banner on standard output; with the embedded demo upstream its users and outbox too")
    func banner() {
        #expect(ServeAnnouncement.banner(url, embeddedDemo: false) == "HAAPI gateway: open http://127.0.0.1:8080/ in a browser\n")
        let demo = ServeAnnouncement.banner(url, embeddedDemo: true)
        #expect(demo.hasPrefix("HAAPI gateway: open http://127.0.0.1:8080/ in a browser\nEmbedded demo upstream; users demo/demo"))
        #expect(demo.hasSuffix("The demo's one-time codes and approval links: http://127.0.0.1:8080/demo/outbox\n"))
        let capture = LogCapture()
        let written = WrittenText()
        ServeAnnouncement.announce(url, embeddedDemo: true, logging: LoggingSettings(), logger: capture.logger) { written.append($0) }
        #expect(written.text == demo)
        #expect(capture.all.isEmpty)
    }

    @Test("in JSON mode, a log line with the URL (and the demo's users and outbox), nothing written")
    func jsonMode() {
        var logging = LoggingSettings()
        logging.format = .json
        let capture = LogCapture()
        let written = WrittenText()
        ServeAnnouncement.announce(url, embeddedDemo: true, logging: logging, logger: capture.logger) { written.append($0) }
        #expect(written.text.isEmpty)
        #expect(capture.all.count == 1)
        #expect(capture.text.contains("HAAPI gateway: open http://127.0.0.1:8080/ in a browser"))
        #expect(capture.text.contains("demoOutbox"))
        #expect(capture.text.contains("demoUsers"))
        #expect("\(ServeAnnouncement.noCallbackWarning)".contains(ConfigurationKey.callbacksSinks.path))
    }

    /// Text written by a closure under test.
    final class WrittenText: Sendable {
        private let parts = Mutex<[String]>([])
        /// Everything written, in order.
        var text: String { parts.withLock { $0.joined() } }
        func append(_ part: String) { parts.withLock { $0.append(part) } }
    }
}
