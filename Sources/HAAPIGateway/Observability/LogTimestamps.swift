import Foundation
import Synchronization

/// The time as log lines write it, formatted once a second instead of once a line: a request's log line asked the C
/// library for the local time zone and formatted the time on every request (a third of the line's cost in a profile of
/// the page path, `artifacts/profiles/`).
final class LogTimestamps: Sendable {
    /// The texts of one second.
    private struct Second {
        var epochSecond: Int
        /// `%Y-%m-%dT%H:%M:%S%z` in the local time zone, as swift-log's `StreamLogHandler` writes it.
        var local: String
        /// ISO 8601 in UTC, `2026-11-26T11:59:30Z`.
        var utc: String
    }

    /// The one every handler of the process shares.
    static let shared = LogTimestamps()

    private let now: @Sendable () -> Int
    private let current = Mutex<Second?>(nil)

    /// - Parameter now: Seconds since 1970 (tests move it).
    init(now: @escaping @Sendable () -> Int = { time(nil) }) {
        self.now = now
    }

    /// The local time with its offset, `2026-11-26T12:59:30+0100`.
    var local: String { second().local }

    /// The UTC time, `2026-11-26T11:59:30Z`.
    var utc: String { second().utc }

    private func second() -> Second {
        let epochSecond = now()
        if let cached = current.withLock({ $0 }), cached.epochSecond == epochSecond { return cached }
        let made = Second(epochSecond: epochSecond, local: Self.format(epochSecond, local: true), utc: Self.format(epochSecond, local: false))
        current.withLock { $0 = made }
        return made
    }

    private static func format(_ epochSecond: Int, local: Bool) -> String {
        var seconds = time_t(epochSecond)
        var parts = tm()
        if local { localtime_r(&seconds, &parts) } else { gmtime_r(&seconds, &parts) }
        var buffer = [CChar](repeating: 0, count: 64)
        let length = strftime(&buffer, buffer.count, local ? "%Y-%m-%dT%H:%M:%S%z" : "%Y-%m-%dT%H:%M:%SZ", &parts)
        return String(decoding: buffer[0..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
