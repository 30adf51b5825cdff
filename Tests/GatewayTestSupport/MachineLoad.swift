import Foundation

/// What the machine was doing, for the message of a test that waited for something bounded in time: a failure then
/// says at once whether the machine was starved (its load, the tests holding a ``MachineShare``) or the product slow.
public enum MachineLoad {
    /// "load average 11.20 8.05 4.98 on 2 processors; machine shares 2 of 2 held (Login … 14.2 s, Proxy … 3.1 s),
    /// 37 waiting; Proxy … waited 12.0 s for its share and has held it 3.1 s" (the suite or test this task runs in).
    public static var description: String {
        var parts = [loadAverage]
        let (holders, waiting) = MachineShare.shared.occupancy
        let now = ContinuousClock.now
        let held = holders.reduce(0) { $0 + $1.units }
        let names = holders.prefix(4).map { "\($0.name) \(seconds(now - $0.since))" }.joined(separator: ", ")
        parts.append(
            "machine shares \(held) of \(MachineShare.shared.capacity) held" + (names.isEmpty ? "" : " (\(names))") + ", \(waiting) waiting"
        )
        if let mine = MachineShare.held {
            parts.append("\(mine.name) waited \(seconds(mine.waited)) for its share and has held it \(seconds(now - mine.since))")
        }
        return parts.joined(separator: "; ")
    }

    /// "load average 11.20 8.05 4.98 on 2 processors" (1, 5 and 15 minutes), from `/proc/loadavg`.
    public static var loadAverage: String {
        let processors = ProcessInfo.processInfo.activeProcessorCount
        guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else {
            return "load average unknown on \(processors) processors"
        }
        return "load average \(text.split(separator: " ").prefix(3).joined(separator: " ")) on \(processors) processors"
    }

    /// What `condition` waited for and how long, with the machine's state: "waited 30.0 s for /readyz 200; load …".
    public static func waited(_ duration: Duration, for what: String) -> String {
        "waited \(seconds(duration)) for \(what); \(description)"
    }

    static func seconds(_ duration: Duration) -> String {
        let (whole, attoseconds) = duration.components
        return String(format: "%.1f s", Double(whole) + Double(attoseconds) / 1e18)
    }
}
