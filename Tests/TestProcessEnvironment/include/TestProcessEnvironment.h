#ifndef TEST_PROCESS_ENVIRONMENT_H
#define TEST_PROCESS_ENVIRONMENT_H

/// Whether Swift Testing's capture of a backtrace for every thrown Swift error is off in this test process (set before
/// `main` by this module's constructor unless the environment already says otherwise).
int haapi_test_error_backtraces_off(void);

#endif
