import Foundation
import Logging

/// What `serve` says once it listens: where to open the gateway, and a warning when no callback takes the tokens.
public enum ServeAnnouncement {
    /// The demo users the embedded demo upstream knows, as `serve` names them.
    static let demoUsers = "demo/demo, otp/otp, sms/sms, poll/poll, consent/consent"

    /// The warning logged when no callback is configured.
    public static let noCallbackWarning: Logger.Message =
        "no callback is configured, so the tokens of each sign-in are discarded; add --callback file:PATH (or \(ConfigurationKey.callbacksSinks.path))"

    /// Where to open the gateway: a plain banner for people (`logging.format: text`, handed to `write`), or in JSON mode a
    /// log line (`url`, and `demoUsers` and `demoOutbox` with the embedded demo upstream), so that standard output carries
    /// no plain text beside a log collector's JSON.
    /// - Parameters:
    ///   - url: The gateway's base URL.
    ///   - embeddedDemo: Whether the embedded demo upstream is in use.
    ///   - write: Writes the banner (standard output).
    public static func announce(_ url: URL, embeddedDemo: Bool, logging: LoggingSettings, logger: Logger, write: (String) -> Void) {
        guard logging.format == .text else {
            var metadata: Logger.Metadata = ["url": "\(url.absoluteString)/"]
            if embeddedDemo {
                metadata["demoUsers"] = "\(demoUsers)"
                metadata["demoOutbox"] = "\(url.absoluteString)/demo/outbox"
            }
            logger.notice("HAAPI gateway: open \(url.absoluteString)/ in a browser", metadata: metadata)
            return
        }
        write(banner(url, embeddedDemo: embeddedDemo))
    }

    /// The banner of ``announce(_:embeddedDemo:logging:logger:write:)`` in text mode, one line per fact.
    public static func banner(_ url: URL, embeddedDemo: Bool) -> String {
        var banner = "HAAPI gateway: open \(url.absoluteString)/ in a browser\n"
        if embeddedDemo {
            banner += "Embedded demo upstream; users \(demoUsers)\n"
            banner += "The demo's one-time codes and approval links: \(url.absoluteString)/demo/outbox\n"
        }
        return banner
    }
}
