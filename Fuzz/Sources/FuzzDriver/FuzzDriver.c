// SwiftPM links every executable on Linux with `--defsym main=<Target>_main`, a symbol a `-parse-as-library` fuzz
// target never emits; these entry points satisfy it and hand over to libFuzzer's driver with the target's
// `LLVMFuzzerTestOneInput`. Each executable uses the one named after it.
#include "FuzzDriver.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

static int runFuzzer(int argc, char **argv) { return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput); }

int FuzzHAAPIResponseDecoder_main(int argc, char **argv) { return runFuzzer(argc, argv); }
int FuzzFormBody_main(int argc, char **argv) { return runFuzzer(argc, argv); }
int FuzzSessionCookie_main(int argc, char **argv) { return runFuzzer(argc, argv); }
int FuzzStepRenderer_main(int argc, char **argv) { return runFuzzer(argc, argv); }
int FuzzProxyRequest_main(int argc, char **argv) { return runFuzzer(argc, argv); }
int FuzzGitCredentialInput_main(int argc, char **argv) { return runFuzzer(argc, argv); }
int FuzzDockerCredential_main(int argc, char **argv) { return runFuzzer(argc, argv); }
int FuzzKubernetesExecInfo_main(int argc, char **argv) { return runFuzzer(argc, argv); }
int FuzzTokenFile_main(int argc, char **argv) { return runFuzzer(argc, argv); }
