import TestProcessEnvironment

/// What the test process is run with, set before `main` by the `TestProcessEnvironment` module.
public enum TestProcess {
    /// Whether Swift Testing's backtrace capture for every thrown Swift error is off (a whole run once hung inside it).
    public static var errorBacktracesOff: Bool { haapi_test_error_backtraces_off() != 0 }
}
