#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The CPU time this process has used so far, all its threads, user and system (`getrusage(RUSAGE_SELF)`).
enum ProcessCPUTime {
    static func now() -> Duration {
        var usage = rusage()
        getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
        let seconds = Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
        let microseconds = Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        return .seconds(seconds) + .microseconds(microseconds)
    }
}
