import Foundation

/// The CPU time another process (the gateway) has used so far, all its threads, to the nanosecond: the sum of each of
/// its threads' time on a CPU in `/proc/PID/task/*/schedstat` (Linux). `/proc/PID/stat` counts in clock ticks (10 ms),
/// too coarse for one sign-in. A thread that ended between two readings drops out of the second one (an idle worker of
/// Swift's pool may end): that part's figure then falls short, which the medians of many rounds the benchmark reports
/// pass over.
struct OtherProcessCPUTime: Sendable {
    let pid: Int32

    /// The process's CPU time so far, or nil when it cannot be read (no such process, not Linux).
    func now() -> Duration? {
        let tasks = "/proc/\(pid)/task"
        guard let threads = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return nil }
        var nanoseconds: Int64 = 0
        for thread in threads {
            guard let text = try? String(contentsOfFile: "\(tasks)/\(thread)/schedstat", encoding: .utf8),
                let first = text.split(separator: " ").first, let value = Int64(first)
            else { continue }
            nanoseconds += value
        }
        return .nanoseconds(nanoseconds)
    }
}
