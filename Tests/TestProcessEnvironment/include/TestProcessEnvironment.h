#ifndef TEST_PROCESS_ENVIRONMENT_H
#define TEST_PROCESS_ENVIRONMENT_H

/// Whether Swift Testing's capture of a backtrace for every thrown Swift error is off in this test process (set before
/// `main` by this module's constructor unless the environment already says otherwise).
int haapi_test_error_backtraces_off(void);

/// This test process's scratch root, which `TMPDIR` names from before `main` and which is removed when the process
/// exits; NULL when it could not be made (`TMPDIR` is then as it was).
const char *haapi_test_scratch_root(void);

#endif
