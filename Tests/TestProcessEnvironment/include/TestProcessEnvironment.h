#ifndef TEST_PROCESS_ENVIRONMENT_H
#define TEST_PROCESS_ENVIRONMENT_H

/// Whether Swift Testing's capture of a backtrace for every thrown Swift error is off in this test process (set before
/// `main` by this module's constructor unless the environment already says otherwise).
int haapi_test_error_backtraces_off(void);

/// This test process's scratch root, which `TMPDIR` names from before `main` and which is removed when the process
/// exits; NULL when it could not be made (`TMPDIR` is then as it was).
const char *haapi_test_scratch_root(void);

/// The Python modules of the optional suites that python3 finds, as ",name,name,": looked for before `main` unless
/// `HAAPI_GATEWAY_REQUIRE_ALL_TESTS` is set (then empty).
const char *haapi_test_python_modules(void);

/// Whether this root process can make a mount namespace and mount in it (the deployment recipes' scratch systems):
/// tried before `main` unless `HAAPI_GATEWAY_REQUIRE_ALL_TESTS` is set (then 0).
int haapi_test_overlays_work(void);

#endif
