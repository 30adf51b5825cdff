import TestProcessEnvironment

/// What the test process is run with, set before `main` by the `TestProcessEnvironment` module.
public enum TestProcess {
    /// Whether Swift Testing's backtrace capture for every thrown Swift error is off (a whole run once hung inside it).
    public static var errorBacktracesOff: Bool { haapi_test_error_backtraces_off() != 0 }

    /// This process's scratch root (`$TMPDIR/hgt-<pid>`), which `TMPDIR` names for the whole run and which is removed
    /// when the process exits; nil when it could not be made.
    public static var scratchRoot: String? { haapi_test_scratch_root().map { String(cString: $0) } }
}
