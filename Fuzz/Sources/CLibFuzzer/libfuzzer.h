// libFuzzer's driver entry point (compiler-rt FuzzerInterface.h), linked in
// by -sanitize=fuzzer. The harnesses call it from their own main: SwiftPM
// makes every executable's Swift entry point the program's `main`, which
// displaces libFuzzer's.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
