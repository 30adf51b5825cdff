#include <stdlib.h>
#include <string.h>

#include "TestProcessEnvironment.h"

// Swift Testing installs a handler on every thrown Swift error that captures a backtrace and keeps it in a cache under a
// lock (`Backtrace._willThrow`, `_ErrorMappingCache`). Under this suite's load (thousands of cancelled `Task.sleep`s,
// each a thrown `CancellationError`) a whole run once hung there for good: one cooperative thread spun inside the
// cache's dictionary lookup holding the lock, the other waited for it, and no test could go on (gdb backtrace of the
// test process, 2026-11-27). Swift Testing reads `SWT_SWIFT_ERROR_BACKTRACING_ENABLED` once, when the run starts, so it
// is set here, before `main`; a value already in the environment is kept.
__attribute__((constructor)) static void haapi_test_process_environment(void) {
    setenv("SWT_SWIFT_ERROR_BACKTRACING_ENABLED", "0", 0);
}

int haapi_test_error_backtraces_off(void) {
    const char *value = getenv("SWT_SWIFT_ERROR_BACKTRACING_ENABLED");
    return value != NULL && strcmp(value, "0") == 0;
}
