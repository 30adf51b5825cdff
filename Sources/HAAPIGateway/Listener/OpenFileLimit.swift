import Logging

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's open-file limit (`RLIMIT_NOFILE`) against `server.maximumConnections`: every connection is a file
/// descriptor, and the gateway needs more for its upstream connections, the metrics listener, files and sinks.
///
/// At startup, when the soft limit is below the connections wanted plus ``reserve``, the soft limit is raised toward the
/// hard limit (as Go's runtime does); when even the hard limit is too low, the total cap is lowered to the limit less the
/// reserve (at least ``smallestCap``) and a warning names both numbers. Without this, a crowd of idle connections uses
/// every descriptor: accepting fails, and nothing is logged.
public struct OpenFileLimit: Sendable, Equatable {
    /// Descriptors kept for everything but client connections.
    public static let reserve = 256
    /// The total cap is never lowered below this.
    public static let smallestCap = 64

    /// The soft limit (what applies).
    public var soft: UInt64
    /// The hard limit (how far an unprivileged process may raise the soft one).
    public var hard: UInt64

    /// A limit pair.
    public init(soft: UInt64, hard: UInt64) {
        self.soft = soft
        self.hard = hard
    }

    /// What to do for a wanted number of connections.
    public struct Plan: Sendable, Equatable {
        /// The soft limit to set, when it should be raised.
        public var raiseSoftLimitTo: UInt64?
        /// The total cap in effect with that limit.
        public var maximumConnections: Int
    }

    /// The plan for `maximumConnections` under this limit: raise the soft limit toward the hard one when it is below
    /// `maximumConnections + reserve`; then, if the limit is still too low, lower the cap to the limit less the reserve
    /// (at least ``smallestCap``).
    public func plan(maximumConnections: Int) -> Plan {
        let needed = UInt64(max(0, maximumConnections)) + UInt64(Self.reserve)
        guard soft < needed else { return Plan(raiseSoftLimitTo: nil, maximumConnections: maximumConnections) }
        let raised = max(soft, min(hard, needed))
        return Plan(raiseSoftLimitTo: raised > soft ? raised : nil, maximumConnections: Self.cap(maximumConnections, softLimit: raised))
    }

    /// The total cap `maximumConnections` leaves under a soft limit: itself when the limit holds it and the reserve, else
    /// the limit less the reserve, at least ``smallestCap``.
    public static func cap(_ maximumConnections: Int, softLimit: UInt64) -> Int {
        let room = softLimit > UInt64(reserve) ? Int(clamping: softLimit - UInt64(reserve)) : 0
        return min(maximumConnections, max(smallestCap, room))
    }

    /// The process's limit now, or `nil` when it cannot be read.
    public static func current() -> OpenFileLimit? {
        var limit = rlimit()
        guard getrlimit(resource, &limit) == 0 else { return nil }
        return OpenFileLimit(soft: UInt64(limit.rlim_cur), hard: UInt64(limit.rlim_max))
    }

    /// Sets the process's soft limit (the hard one unchanged); true when it worked.
    static func setSoftLimit(_ soft: UInt64, hard: UInt64) -> Bool {
        var limit = rlimit(rlim_cur: rlim_t(soft), rlim_max: rlim_t(hard))
        return setrlimit(resource, &limit) == 0
    }

    /// `RLIMIT_NOFILE`, as the C library's functions take it.
    #if canImport(Glibc)
    private static let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let resource = RLIMIT_NOFILE
    #endif

    /// Makes room for `maximumConnections` in this process, raising the soft limit when needed, and returns the total cap
    /// in effect (lower than asked when the limit cannot hold it, with a warning naming both numbers).
    public static func prepare(forConnections maximumConnections: Int, logger: Logger) -> Int {
        guard var limit = current() else {
            logger.warning("the open-file limit cannot be read; \(ConfigurationKey.serverMaximumConnections.path) applies as configured")
            return maximumConnections
        }
        let plan = limit.plan(maximumConnections: maximumConnections)
        if let raised = plan.raiseSoftLimitTo {
            if setSoftLimit(raised, hard: limit.hard) {
                logger.info("raised the open-file limit", metadata: ["from": .stringConvertible(limit.soft), "to": .stringConvertible(raised)])
                limit.soft = raised
            } else {
                logger.warning(
                    "the open-file limit could not be raised",
                    metadata: ["limit": .stringConvertible(limit.soft), "wanted": .stringConvertible(raised)]
                )
            }
        }
        let cap = cap(maximumConnections, softLimit: limit.soft)
        if cap < maximumConnections {
            logger.warning(
                "the open-file limit \(limit.soft) (hard limit \(limit.hard)) has no room for \(ConfigurationKey.serverMaximumConnections.path) \(maximumConnections) and \(reserve) more descriptors: at most \(cap) connections are accepted; raise LimitNOFILE or ulimit -n"
            )
        }
        return cap
    }
}
