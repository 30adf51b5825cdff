import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether processes are still there, read from `/proc` (Linux) and never with `pkill`: a process counts as gone once
/// it exited, zombies included (an orphan's zombie waits for whoever reaps orphans, which is no test's business).
public enum ProcessGroups {
    /// The running processes (not zombies) whose process group is `group`.
    public static func members(of group: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { pid_t($0) }.filter { pid in
            guard let fields = statFields(pid) else { return false }
            return fields.state != "Z" && fields.group == group
        }
    }

    /// Whether the process `pid` is running (not gone, not a zombie).
    public static func isRunning(_ pid: pid_t) -> Bool {
        guard let fields = statFields(pid) else { return false }
        return fields.state != "Z"
    }

    /// Waits up to `limit` until none of `processes` runs (each read from its own `/proc` entry every 100 ms: scanning
    /// all of `/proc` in a loop would take the CPU the tests running beside it need).
    /// - Returns: Whether none runs.
    public static func waitUntilGone(_ processes: [pid_t], within limit: Duration) async -> Bool {
        let deadline = ContinuousClock.now + limit
        while processes.contains(where: isRunning) {
            guard ContinuousClock.now < deadline else { return false }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return true
    }

    /// The state letter and process group of `/proc/PID/stat` (the fields after the command's closing parenthesis).
    private static func statFields(_ pid: pid_t) -> (state: String, group: pid_t)? {
        guard let text = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let group = pid_t(fields[2]) else { return nil }
        return (String(fields[0]), group)
    }
}
