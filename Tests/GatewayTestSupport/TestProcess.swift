import TestProcessEnvironment

/// What the test process is run with, set before `main` by the `TestProcessEnvironment` module.
public enum TestProcess {
    /// Whether Swift Testing's backtrace capture for every thrown Swift error is off (a whole run once hung inside it).
    public static var errorBacktracesOff: Bool { haapi_test_error_backtraces_off() != 0 }

    /// This process's scratch root (`$TMPDIR/hgt-<pid>`), which `TMPDIR` names for the whole run and which is removed
    /// when the process exits; nil when it could not be made.
    public static var scratchRoot: String? { haapi_test_scratch_root().map { String(cString: $0) } }

    /// The Python modules of the optional suites that python3 finds (looked for before `main`; none where
    /// `HAAPI_GATEWAY_REQUIRE_ALL_TESTS` is set, which requires them all).
    public static let pythonModules: Set<String> = Set(
        String(cString: haapi_test_python_modules()).split(separator: ",").map(String.init)
    )

    /// Whether this process can make a mount namespace and mount in it (tried before `main`, as root only).
    public static var overlaysWork: Bool { haapi_test_overlays_work() != 0 }
}
