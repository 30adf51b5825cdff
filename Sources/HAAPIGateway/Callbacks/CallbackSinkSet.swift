/// The sinks outcomes go to: fixed ones, or those the configuration in effect names (``SettingsSource``), made again
/// only when it names others; and the name each one's deliveries have in the journal.
struct CallbackSinkSet: Sendable {
    /// Where the configured sinks are read; nil: the sinks are fixed.
    private let configurations: SettingsSource<[CallbackSinkConfiguration]>?
    private var sinks: [any CallbackSink]
    /// The configured sinks ``sinks`` were made from.
    private var madeFrom: [CallbackSinkConfiguration] = []

    /// Always these sinks (tests, and consumers in this process).
    static func fixed(_ sinks: [any CallbackSink]) -> CallbackSinkSet {
        CallbackSinkSet(configurations: nil, sinks: sinks)
    }

    /// The sinks `configurations` name at the time: a reload's sinks take the outcomes from then on.
    static func configured(_ configurations: SettingsSource<[CallbackSinkConfiguration]>) -> CallbackSinkSet {
        CallbackSinkSet(configurations: configurations, sinks: [])
    }

    /// The sinks now.
    mutating func current() -> [any CallbackSink] {
        guard let wanted = configurations?.current, wanted != madeFrom else { return sinks }
        sinks = wanted.map(\.sink)
        madeFrom = wanted
        return sinks
    }

    /// The name each sink's deliveries have in the journal: its own, or for the second and later of sinks sharing one
    /// `name #2`, `#3`, … (two webhooks whose URLs differ only in their query, which names leave out, are two
    /// receivers), so that each sink has rows of its own in the outbox. Replicas with the same sinks name them alike.
    static func journalNames(of sinks: [any CallbackSink]) -> [String] {
        var seen: [String: Int] = [:]
        return sinks.map { sink in
            let count = (seen[sink.name] ?? 0) + 1
            seen[sink.name] = count
            return count == 1 ? sink.name : "\(sink.name) #\(count)"
        }
    }
}
